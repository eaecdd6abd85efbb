// 64-bit products reduced to 32-bit results: signed and unsigned high
// words, a 40-bit arithmetic shift of a product, and a 64-bit comparison.
// qgpu: --grid 1 --block 4
// qgpu: a=2147483647,-2147483648,-123456789,40000
// qgpu: b=-2147483648,-2147483648,987654321,40000
// qgpu: out=zeros:16
__global__ void wide_products(const int* a, const int* b, int* out) {
    int t = threadIdx.x;
    int x = a[t], y = b[t];
    long long p = (long long)x * y;
    unsigned long long up = (unsigned long long)(unsigned int)x * (unsigned int)y;
    out[4 * t + 0] = (int)(p >> 32);
    out[4 * t + 1] = (int)(up >> 32);
    out[4 * t + 2] = (int)(p >> 40);
    out[4 * t + 3] = (p > 1000000000000LL) ? 1 : ((p < -1000000000000LL) ? -1 : 0);
}
