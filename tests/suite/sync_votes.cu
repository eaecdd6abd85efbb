// Barrier-wide votes __syncthreads_count/_and/_or across 2 CTAs of 7
// threads (warps of 4 and 3), each CTA computing its own answers.
// qgpu: --grid 2 --block 7
// qgpu: in=1,2,3,4,5,6,7,-1,0,8,-8,16,-16,2
// qgpu: out=zeros:14
__global__ void sync_votes(const int* in, int* out) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int v = in[i];
    int c = __syncthreads_count(v > 2);
    int a = __syncthreads_and(v != 0);
    int o = __syncthreads_or(v < -10);
    out[i] = c * 100 + (a ? 10 : 0) + (o ? 1 : 0) + v * 1000;
}
