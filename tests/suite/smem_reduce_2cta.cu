// Two CTAs of 8: per-CTA shared reductions (sum, min, xor) with a
// halving loop, per-CTA results, and a global atomicAdd of the partials.
// qgpu: --grid 2 --block 8
// qgpu: in=10,20,30,40,50,60,70,80,-1,-2,-3,-4,-5,-6,-7,2147483647
// qgpu: part=zeros:6 total=zeros:1
__global__ void smem_reduce_2cta(const int* in, int* part,
                                 unsigned int* total) {
    __shared__ unsigned int s_sum[8];
    __shared__ int s_min[8];
    __shared__ int s_xor[8];
    int t = threadIdx.x;
    int v = in[blockIdx.x * blockDim.x + t];
    s_sum[t] = (unsigned int)v;
    s_min[t] = v;
    s_xor[t] = v;
    __syncthreads();
    for (int s = blockDim.x >> 1; s >= 1; s /= 2) {
        if (t < s) {
            s_sum[t] += s_sum[t + s];
            s_min[t] = min(s_min[t], s_min[t + s]);
            s_xor[t] ^= s_xor[t + s];
        }
        __syncthreads();
    }
    if (t == 0) {
        part[3 * blockIdx.x + 0] = (int)s_sum[0];
        part[3 * blockIdx.x + 1] = s_min[0];
        part[3 * blockIdx.x + 2] = s_xor[0];
        atomicAdd(total, s_sum[0]);
    }
}
