// qgpu: --grid 1 --block 8
// qgpu: a=-1,-2147483648,-2147483648,123456789,-123456789,2147483647,-3,65536
// qgpu: b=-1,-2147483648,2147483647,-987654321,-987654321,2147483647,5,65536
// qgpu: hs=zeros:8 hu=zeros:8 m24=zeros:8 um24=zeros:8
__global__ void k21_mulhi(const int* a, const int* b, int* hs, unsigned* hu, int* m24, unsigned* um24) {
    int t = threadIdx.x;
    hs[t] = __mulhi(a[t], b[t]);
    hu[t] = __umulhi((unsigned)a[t], (unsigned)b[t]);
    m24[t] = __mul24(a[t], b[t]);
    um24[t] = __umul24((unsigned)a[t], (unsigned)b[t]);
}
