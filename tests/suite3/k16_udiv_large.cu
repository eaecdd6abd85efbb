// qgpu: --grid 1 --block 8
// qgpu: a=4294967295,2147483648,2147483647,3000000000,0,4000000000,123,4294967294
// qgpu: b=2147483648,2147483649,2147483648,3000000001,4294967295,2147483648,4294967295,3
// qgpu: q=zeros:8 r=zeros:8 qc=zeros:8
__global__ void k16_udiv_large(const unsigned* a, const unsigned* b, unsigned* q, unsigned* r, unsigned* qc) {
    int t = threadIdx.x;
    unsigned x = a[t], y = b[t];
    q[t] = x / y;
    r[t] = x % y;
    qc[t] = x / 2147483649u + (x % 3000000000u) / 7u;
}
