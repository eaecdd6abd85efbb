// Byte-wise SIMD by hand: per-byte saturating add via a loop over 4 bytes,
// per-byte max without a loop (mask tricks), a byte swap by shifts, a
// __byte_perm interleave and unpacking signed bytes to a sum. 8 threads.
// qgpu: --grid 1 --block 8
// qgpu: x=16909060,4294967295,2155905152,305419896,0,2139062143,1684234849,4278255360
// qgpu: y=16843009,1,2155905152,2596069104,4294967295,16843009,1145258561,16711935
// qgpu: sat=zeros:8 bmax=zeros:8 swp=zeros:8 ilv=zeros:8 ssum=zeros:8
__global__ void byte_simd(const unsigned int* x, const unsigned int* y, unsigned int* sat,
                          unsigned int* bmax, unsigned int* swp, unsigned int* ilv, int* ssum) {
    int t = threadIdx.x;
    unsigned int a = x[t], b = y[t];
    unsigned int r = 0u;
    for (int k = 0; k < 4; ++k) {
        unsigned int s = ((a >> (8 * k)) & 0xffu) + ((b >> (8 * k)) & 0xffu);
        if (s > 255u) s = 255u;
        r |= s << (8 * k);
    }
    sat[t] = r;
    unsigned int hi = 0x80808080u;
    unsigned int d = ((a | hi) - (b & ~hi)) ^ ((a ^ ~b) & hi);
    unsigned int ge = d & hi;
    unsigned int m = (ge >> 7) * 0xffu;
    bmax[t] = (a & m) | (b & ~m);
    swp[t] = (a >> 24) | ((a >> 8) & 0xff00u) | ((a << 8) & 0xff0000u) | (a << 24);
    ilv[t] = __byte_perm(a, b, 0x7351) ^ __byte_perm(a, b, 0x6240);
    int s = 0;
    for (int k = 0; k < 4; ++k) s += (signed char)(a >> (8 * k)) - (signed char)(b >> (8 * k));
    ssum[t] = s;
}
