// Shared-memory tree reduction over 16 threads with the classic
// for (s = blockDim.x / 2; s > 0; s >>= 1) loop and a barrier per step;
// sum and max reduced side by side.
// qgpu: --grid 1 --block 16
// qgpu: in=3,-1,4,1,-5,9,2,-6,5,3,-5,8,9,-7,9,3
// qgpu: sum=zeros:1 mx=zeros:1 pre=zeros:16
__global__ void smem_tree16(const int* in, int* sum, int* mx, int* pre) {
    __shared__ int ssum[16];
    __shared__ int smax[16];
    unsigned int t = threadIdx.x;
    int v = in[t];
    ssum[t] = v;
    smax[t] = v;
    __syncthreads();
    for (unsigned int s = blockDim.x / 2; s > 0; s >>= 1) {
        if (t < s) {
            ssum[t] += ssum[t + s];
            smax[t] = max(smax[t], smax[t + s]);
        }
        __syncthreads();
    }
    pre[t] = ssum[t & 1u] - v;
    if (t == 0) {
        sum[0] = ssum[0];
        mx[0] = smax[0];
    }
}
