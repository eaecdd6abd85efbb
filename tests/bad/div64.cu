// Unsupported: 64-bit division whose operands really use the upper 32 bits.
__global__ void div64(const int* a, const int* b, int* out) {
    int i = threadIdx.x;
    long long x = ((long long)a[i] << 32) | (unsigned)b[i];
    long long y = (long long)b[i] + 7;
    out[i] = (int)(x / y);  // BAD: div.s64
}
