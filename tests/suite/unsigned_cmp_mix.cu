// Signed vs unsigned comparisons of the same bits, mixed int/unsigned
// comparisons (the int converts to unsigned), wrap checks; flags packed
// into a bit mask per thread.
// qgpu: --grid 1 --block 6
// qgpu: u=0,1,2147483647,2147483648,4294967295,5
// qgpu: s=-1,1,-2147483648,2147483647,0,5
// qgpu: out=zeros:6
__global__ void unsigned_cmp_mix(const unsigned int* u, const int* s,
                                 unsigned int* out) {
    int t = threadIdx.x;
    unsigned int a = u[t];
    int b = s[t];
    unsigned int f = 0;
    f |= (a < 5u) ? 1u : 0u;
    f |= ((int)a < 5) ? 2u : 0u;
    f |= ((unsigned int)b > a) ? 4u : 0u;
    f |= (b > (int)a) ? 8u : 0u;
    f |= (a >= 0x80000000u) ? 16u : 0u;
    f |= (a - 1u > a) ? 32u : 0u;
    f |= (b < a) ? 64u : 0u;
    f |= ((unsigned int)b <= 2147483647u) ? 128u : 0u;
    f |= (a + (unsigned int)b < a) ? 256u : 0u;
    out[t] = f;
}
