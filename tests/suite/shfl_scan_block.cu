// Block-wide inclusive scan over 12 threads: __shfl_up_sync scans inside
// each 4-thread group, group totals go through shared memory, one barrier.
// qgpu: --grid 1 --block 12
// qgpu: in=1,2,3,4,5,6,7,8,9,10,11,-100 out=zeros:12 tot=zeros:3
__global__ void shfl_scan_block(const int* in, int* out, int* tot) {
    __shared__ int gsum[3];
    int t = threadIdx.x;
    int lane = t & 3;
    int g = t >> 2;
    unsigned int m = 0xfu << (4 * g);
    int x = in[t];
    #pragma unroll
    for (int d = 1; d <= 2; d *= 2) {
        int y = __shfl_up_sync(m, x, d, 4);
        if (lane >= d) x += y;
    }
    if (lane == 3) gsum[g] = x;
    __syncthreads();
    int base = 0;
    for (int k = 0; k < g; ++k) base += gsum[k];
    out[t] = x + base;
    if (lane == 0) tot[g] = gsum[g];
}
