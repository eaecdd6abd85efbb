// Unsigned division and remainder by constants on large values.
// qgpu: --grid 1 --block 4 in=4294967295,2147483648,1000000007,6
// qgpu: out=zeros:24
__global__ void div_unsigned_const(const unsigned int* in, unsigned int* out) {
    unsigned int t = threadIdx.x;
    unsigned int x = in[t];
    unsigned int* o = out + 6 * t;
    o[0] = x / 7u;
    o[1] = x % 7u;
    o[2] = x / 10u;
    o[3] = x % 1000u;
    o[4] = x / 3u + x % 3u;
    o[5] = x / 65537u;
}
