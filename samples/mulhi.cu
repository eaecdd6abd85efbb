// High halves of 32x32 products: __mulhi (signed) and __umulhi (unsigned),
// next to the ordinary low-half product. 6 threads = partial warp.
// out[2*i] = __mulhi(a, b), out[2*i+1] = a * b; uhi[i] = __umulhi(ua, ub).
// qgpu: --grid 1 --block 6
// qgpu: a=2147483647,-2147483648,-1,123456789,-7,65536
// qgpu: b=2147483647,-2147483648,5,-987654321,3,65536 out=zeros:12
// qgpu: ua=4294967295,4294967295,3000000000,65536,1,123456
// qgpu: ub=4294967295,2,3000000000,65536,1,654321 uhi=zeros:6
__global__ void mulhi(const int* a, const int* b, int* out, const unsigned* ua,
                      const unsigned* ub, unsigned* uhi) {
    int i = threadIdx.x;
    int x = a[i];
    int y = b[i];
    out[2 * i + 0] = __mulhi(x, y);
    out[2 * i + 1] = x * y;
    uhi[i] = __umulhi(ua[i], ub[i]);
}
