// __byte_perm with constant selectors (byte swap, halves, interleave) and
// per-thread variable selectors (all nibbles 0..7; upper half ignored).
// qgpu: --grid 1 --block 4
// qgpu: x=305419896,4294967295,2155905152,16909060
// qgpu: y=2596069104,0,2139062143,84281096
// qgpu: sel=12816,1985220658,4294914625,291
// qgpu: out=zeros:20
__global__ void byte_perm(const unsigned int* x, const unsigned int* y,
                          const unsigned int* sel, unsigned int* out) {
    int t = threadIdx.x;
    unsigned int a = x[t], b = y[t];
    out[5 * t + 0] = __byte_perm(a, 0, 0x0123);
    out[5 * t + 1] = __byte_perm(a, b, 0x5410);
    out[5 * t + 2] = __byte_perm(a, b, 0x7632);
    out[5 * t + 3] = __byte_perm(a, b, 0x6240);
    out[5 * t + 4] = __byte_perm(a, b, sel[t]);
}
