// Long straight-line bit manipulation: SWAR popcount, parity by xor
// folding, bit reversal by mask swaps, clz by binary search, and the
// isolate/smear tricks, each written by hand. 12 threads, 6 outputs each.
// qgpu: --grid 1 --block 12
// qgpu: in=0,1,2,3,255,256,2147483648,4294967295,305419896,2863311530,65535,4042322160
// qgpu: out=zeros:72
__global__ void swar_bits(const unsigned int* in, unsigned int* out) {
    int t = threadIdx.x;
    unsigned int x = in[t];
    unsigned int c = x - ((x >> 1) & 0x55555555u);
    c = (c & 0x33333333u) + ((c >> 2) & 0x33333333u);
    c = (c + (c >> 4)) & 0x0f0f0f0fu;
    c = (c * 0x01010101u) >> 24;
    unsigned int p = x ^ (x >> 16);
    p ^= p >> 8;
    p ^= p >> 4;
    p ^= p >> 2;
    p ^= p >> 1;
    p &= 1u;
    unsigned int r = x;
    r = ((r >> 1) & 0x55555555u) | ((r & 0x55555555u) << 1);
    r = ((r >> 2) & 0x33333333u) | ((r & 0x33333333u) << 2);
    r = ((r >> 4) & 0x0f0f0f0fu) | ((r & 0x0f0f0f0fu) << 4);
    r = ((r >> 8) & 0x00ff00ffu) | ((r & 0x00ff00ffu) << 8);
    r = (r >> 16) | (r << 16);
    unsigned int n = 0u, y = x;
    if (y == 0u) {
        n = 32u;
    } else {
        if ((y & 0xffff0000u) == 0u) { n += 16u; y <<= 16; }
        if ((y & 0xff000000u) == 0u) { n += 8u; y <<= 8; }
        if ((y & 0xf0000000u) == 0u) { n += 4u; y <<= 4; }
        if ((y & 0xc0000000u) == 0u) { n += 2u; y <<= 2; }
        if ((y & 0x80000000u) == 0u) { n += 1u; }
    }
    unsigned int s = x;
    s |= s >> 1;
    s |= s >> 2;
    s |= s >> 4;
    s |= s >> 8;
    s |= s >> 16;
    unsigned int* o = out + 6 * t;
    o[0] = c;
    o[1] = p;
    o[2] = r;
    o[3] = n;
    o[4] = s ^ (s >> 1);
    o[5] = (c == (unsigned int)__popc(x)) + 2u * (r == __brev(x)) + 4u * (n == (unsigned int)__clz(x));
}
