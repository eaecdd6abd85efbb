// 2 CTAs of 5 threads (warps of 4 and 1). The member mask of each 4-thread
// group covers only its existing threads; the full groups also reduce with
// shuffles (inside a branch taken by whole groups).
// qgpu: --grid 2 --block 5
// qgpu: in=3,-1,4,1,-5,9,2,-6,5,3 out=zeros:30
__global__ void partial5_votes(const int* in, int* out) {
    int t = threadIdx.x;
    int i = blockIdx.x * blockDim.x + t;
    int base = t & ~3;
    int gsize = min(4, (int)blockDim.x - base);
    unsigned int m = ((1u << gsize) - 1u) << base;
    int v = in[i];
    unsigned int b = __ballot_sync(m, v > 0);
    int any = __any_sync(m, v < 0);
    int s = v;
    if (gsize == 4) {
        s += __shfl_xor_sync(m, s, 1, 4);
        s += __shfl_xor_sync(m, s, 2, 4);
    }
    out[3 * i + 0] = (int)b;
    out[3 * i + 1] = any * 10 + gsize;
    out[3 * i + 2] = s;
}
