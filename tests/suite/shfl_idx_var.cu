// __shfl_sync with per-lane variable source lanes, including sources >= 4
// and negative ones (taken modulo the width 4), in two 4-thread groups.
// qgpu: --grid 1 --block 8
// qgpu: v=10,20,30,40,-1,-2,-3,-4 src=3,5,-1,0,2,2,7,-4
// qgpu: out=zeros:24
__global__ void shfl_idx_var(const int* v, const int* src, int* out) {
    int t = threadIdx.x;
    unsigned int m = (t < 4) ? 0x0fu : 0xf0u;
    int x = v[t];
    int a = __shfl_sync(m, x, src[t], 4);
    int b = __shfl_sync(m, x * 2 + t, (t * 3 + 1) & 3, 4);
    int c = __shfl_sync(m, a + b, 3 - (t & 3), 4);
    out[3 * t + 0] = a;
    out[3 * t + 1] = b;
    out[3 * t + 2] = c;
}
