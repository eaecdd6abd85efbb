// Bit reversal and trailing-zero count with plain 32-iteration loops (no
// pragma; nvcc unrolls them), plus a nibble-reversal loop. 16 threads.
// qgpu: --grid 1 --block 16
// qgpu: in=0,1,2,3,8,16,255,256,2147483648,4294967295,305419896,2863311530,65535,4042322160,96,1048576
// qgpu: rev=zeros:16 tz=zeros:16 nib=zeros:16
__global__ void brev_loop32(const unsigned int* in, unsigned int* rev, int* tz,
                            unsigned int* nib) {
    int t = threadIdx.x;
    unsigned int x = in[t];
    unsigned int r = 0u, y = x;
    for (int i = 0; i < 32; ++i) {
        r = (r << 1) | (y & 1u);
        y >>= 1;
    }
    int z = 0;
    for (int i = 0; i < 32; ++i) {
        if ((x >> i) & 1u) break;
        z++;
    }
    unsigned int q = 0u;
    for (int i = 0; i < 8; ++i) q |= ((x >> (4 * i)) & 0xfu) << (28 - 4 * i);
    rev[t] = r;
    tz[t] = z;
    nib[t] = q;
}
