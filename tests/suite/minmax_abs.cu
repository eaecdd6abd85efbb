// min/max on unsigned and signed values (same bits give different answers),
// abs, absolute difference, clamping, __sad/__usad.
// qgpu: --grid 1 --block 5
// qgpu: a=-5,2147483647,-2147483647,0,100 b=3,-1,-2147483647,-100,99
// qgpu: lo=-10,-10,-10,-10,-10 hi=10,10,10,10,10
// qgpu: so=zeros:15 uo=zeros:15
__global__ void minmax_abs(const int* a, const int* b, const int* lo,
                           const int* hi, int* so, unsigned int* uo) {
    int t = threadIdx.x;
    int x = a[t], y = b[t];
    unsigned int ux = (unsigned int)x, uy = (unsigned int)y;
    so[3 * t + 0] = min(x, y) / 2 - max(x, y) / 4;
    so[3 * t + 1] = abs(x) / 3 + abs(y) % 1000;
    so[3 * t + 2] = min(max(x, lo[t]), hi[t]);
    uo[3 * t + 0] = min(ux, uy);
    uo[3 * t + 1] = max(ux, uy) - min(ux, 7u);
    uo[3 * t + 2] = __usad(ux, uy, 1u) + (unsigned int)__sad(x >> 8, y >> 8, 3);
}
