// min/max/abs on signed ints, a clamp to [-10, 10], and min/max on
// unsigned ints (where 0x80000000 and 0xFFFFFFFF are large).
// out[4*i .. 4*i+3] = min, max, abs(a), clamp(a); uout[2*i..] = umin, umax.
// qgpu: --grid 1 --block 8
// qgpu: a=-5,7,-2147483647,0,100,-100,3,-1 b=3,7,2147483647,-1,-100,100,-3,1
// qgpu: ua=2147483648,1,4294967295,0,5,6,3000000000,2
// qgpu: ub=1,2147483648,0,4294967295,6,5,3000000001,2
// qgpu: out=zeros:32 uout=zeros:16
__global__ void min_max_abs(const int* a, const int* b, const unsigned* ua,
                            const unsigned* ub, int* out, unsigned* uout) {
    int i = threadIdx.x;
    int x = a[i];
    int y = b[i];
    out[4 * i + 0] = min(x, y);
    out[4 * i + 1] = max(x, y);
    out[4 * i + 2] = abs(x);
    out[4 * i + 3] = min(max(x, -10), 10);
    unsigned p = ua[i];
    unsigned q = ub[i];
    uout[2 * i + 0] = min(p, q);
    uout[2 * i + 1] = max(p, q);
}
