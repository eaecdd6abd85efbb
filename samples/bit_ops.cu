// Bitwise logic and shifts: and/or/xor/not, left shift and arithmetic right
// shift by per-thread variable amounts (0..31), and a logical (unsigned)
// right shift of the same bits for contrast.
// qgpu: --grid 1 --block 4
// qgpu: x=-16,305419896,-2147483648,255 y=252645135,-1,1,-256 s=3,31,1,0
// qgpu: out=zeros:24 uout=zeros:4
__global__ void bit_ops(const int* x, const int* y, const int* s, int* out,
                        unsigned* uout) {
    int i = threadIdx.x;
    int v = x[i];
    int w = y[i];
    int n = s[i];
    out[6 * i + 0] = v & w;
    out[6 * i + 1] = v | w;
    out[6 * i + 2] = v ^ w;
    out[6 * i + 3] = ~v;
    out[6 * i + 4] = (int)((unsigned)v << n);
    out[6 * i + 5] = v >> n;
    uout[i] = (unsigned)v >> n;
}
