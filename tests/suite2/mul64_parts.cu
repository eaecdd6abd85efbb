// 64-bit products from 32-bit operands: signed and unsigned mul.wide, a
// 64-bit arithmetic right shift by 16 of the product, __mulhi/__umulhi
// and a fixed-point (Q16) multiply with rounding. 8 threads.
// qgpu: --grid 1 --block 8
// qgpu: a=65536,-65536,2147483647,-2147483648,123456789,-1,3,98304
// qgpu: b=65536,98304,2147483647,2147483647,987654321,-1,-5,-32768
// qgpu: out=zeros:40
__global__ void mul64_parts(const int* a, const int* b, int* out) {
    int t = threadIdx.x;
    int x = a[t], y = b[t];
    long long p = (long long)x * y;
    unsigned long long up = (unsigned long long)(unsigned int)x * (unsigned int)y;
    int* o = out + 5 * t;
    o[0] = (int)(p >> 16);
    o[1] = (int)(up >> 32) ^ __umulhi((unsigned int)x, (unsigned int)y);
    o[2] = __mulhi(x, y);
    o[3] = (int)((p + 32768) >> 16);
    o[4] = (p < 0) ? -1 : (p > 0xffffffffLL ? 2 : (int)(p & 1));
}
