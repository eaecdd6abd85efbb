// Classic bit tricks on unsigned values: lowest set bit, clear lowest bit,
// Gray code and its inverse, power-of-two test, and/or/xor/not mixes.
// qgpu: --grid 1 --block 6
// qgpu: in=0,1,96,2147483648,4294967295,305419896
// qgpu: m=4294901760,255,96,1,2863311530,61680
// qgpu: out=zeros:36
__global__ void bit_tricks(const unsigned int* in, const unsigned int* m,
                           unsigned int* out) {
    int t = threadIdx.x;
    unsigned int x = in[t], y = m[t];
    unsigned int* o = out + 6 * t;
    o[0] = x & (0u - x);
    o[1] = x & (x - 1u);
    unsigned int g = x ^ (x >> 1);
    unsigned int b = g;
    for (int s = 1; s < 32; s <<= 1) b ^= b >> s;
    o[2] = g;
    o[3] = b;
    o[4] = (x != 0u && (x & (x - 1u)) == 0u) ? 1u : 0u;
    o[5] = ((x | y) ^ (x & y)) + (~x & y) - (x & ~y);
}
