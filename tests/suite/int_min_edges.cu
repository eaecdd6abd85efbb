// INT_MIN edge cases without UB: INT_MIN is built from its bit pattern and
// negated in unsigned; division/remainder/shift of INT_MIN and neighbours.
// qgpu: --grid 1 --block 4 in=-2147483648,-1,2147483647,7 out=zeros:32
#define INT_MIN_BITS 0x80000000u

__global__ void int_min_edges(const int* in, int* out) {
    int t = threadIdx.x;
    int m = (int)INT_MIN_BITS;
    int v = in[t];
    int* o = out + 8 * t;
    o[0] = v / 2;
    o[1] = v % 3;
    o[2] = v >> 31;
    o[3] = (int)((unsigned int)v >> 31);
    o[4] = (int)(0u - (unsigned int)v);
    o[5] = v / -2;
    o[6] = (v == m) ? 1 : (v < 0 ? 2 : 3);
    o[7] = (int)((unsigned int)v + (unsigned int)m + (unsigned int)min(v, m + 1));
}
