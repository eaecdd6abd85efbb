// Per-group (4 threads) shuffle reduction, then one atomicAdd / atomicMax
// per group into global results; 2 CTAs of 8 threads.
// qgpu: --grid 2 --block 8
// qgpu: in=1,2,3,4,10,20,30,40,-1,-2,-3,-4,100,-100,7,7
// qgpu: total=zeros:1 best=-2147483647 groups=zeros:4
__global__ void warp_reduce_atomic(const int* in, int* total, int* best,
                                   int* groups) {
    int gi = blockIdx.x * blockDim.x + threadIdx.x;
    unsigned int mask = 0xfu << (threadIdx.x & ~3u);
    int v = in[gi];
    #pragma unroll
    for (int off = 2; off > 0; off >>= 1) v += __shfl_xor_sync(mask, v, off, 4);
    if ((threadIdx.x & 3) == 0) {
        atomicAdd(total, v);
        atomicMax(best, v);
        groups[gi / 4] = v;
    }
}
