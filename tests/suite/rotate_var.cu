// Rotations by variable amounts 1..31 written with shifts (nvcc turns them
// into funnel shifts), plus the __funnelshift_* intrinsics with wrapped and
// clamped amounts.
// qgpu: --grid 1 --block 8
// qgpu: x=2147483649,305419896,4294967295,1,2863311530,0,3735928559,16
// qgpu: y=1,2271560481,0,4294967295,1431655765,19088743,4027691818,7
// qgpu: k=1,5,8,13,16,24,31,31
// qgpu: rl=zeros:8 rr=zeros:8 fl=zeros:8 fr=zeros:8 fc=zeros:8
__device__ __forceinline__ unsigned int rotl32(unsigned int v, unsigned int s) {
    return (v << s) | (v >> (32u - s));
}

__device__ __forceinline__ unsigned int rotr32(unsigned int v, unsigned int s) {
    return (v >> s) | (v << (32u - s));
}

__global__ void rotate_var(const unsigned int* x, const unsigned int* y,
                           const int* k, unsigned int* rl, unsigned int* rr,
                           unsigned int* fl, unsigned int* fr,
                           unsigned int* fc) {
    int t = threadIdx.x;
    unsigned int a = x[t], b = y[t];
    unsigned int s = (unsigned int)k[t];
    rl[t] = rotl32(a, s);
    rr[t] = rotr32(a, s) ^ b;
    fl[t] = __funnelshift_l(a, b, s + 32u * (unsigned int)t);
    fr[t] = __funnelshift_r(a, b, s + 64u);
    fc[t] = __funnelshift_lc(a, b, s * 3u) + __funnelshift_rc(b, a, s + 20u);
}
