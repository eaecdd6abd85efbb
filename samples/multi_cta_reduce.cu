// Four CTAs each reduce their 4 elements in their own shared memory
// (barrier inside the loop), store a per-CTA partial sum, and combine the
// partials across CTAs with global atomicAdd/atomicMax/atomicMin.
// qgpu: --grid 4 --block 4
// qgpu: in=1,2,3,4,10,-20,30,-40,100,200,300,400,-7,-7,-7,-7
// qgpu: partial=zeros:4 total=zeros:1 gmax=-2147483648 gmin=2147483647
__global__ void multi_cta_reduce(const int* in, int* partial, int* total,
                                 int* gmax, int* gmin) {
    __shared__ int s[4];
    int t = threadIdx.x;
    s[t] = in[blockIdx.x * blockDim.x + t];
    __syncthreads();
    for (int stride = blockDim.x / 2; stride > 0; stride >>= 1) {
        if (t < stride) s[t] += s[t + stride];
        __syncthreads();
    }
    if (t == 0) {
        int p = s[0];
        partial[blockIdx.x] = p;
        atomicAdd(total, p);
        atomicMax(gmax, p);
        atomicMin(gmin, p);
    }
}
