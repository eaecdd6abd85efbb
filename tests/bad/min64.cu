// Unsupported: 64-bit min of values whose upper halves matter.
__global__ void min64(const int* a, const int* b, int* out) {
    int i = threadIdx.x;
    long long x = (long long)a[i] * b[i];
    long long y = (long long)b[i] << 33;
    long long m = x < y ? x : y;  // BAD: min.s64
    out[i] = (int)(m >> 32);
}
