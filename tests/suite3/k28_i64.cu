// qgpu: --grid 1 --block 4
// qgpu: a=-1,2147483647,-2147483648,123456789 b=2,3,-5,1000000007 lo=zeros:4 hi=zeros:4 cmp=zeros:4
__global__ void k28_i64(const int* a, const int* b, unsigned* lo, int* hi, int* cmp) {
    int t = threadIdx.x;
    long long p = (long long)a[t] * b[t];
    p += 0x100000000LL * t;
    long long q = p >> 7;
    lo[t] = (unsigned)q;
    hi[t] = (int)(p >> 32);
    cmp[t] = (p < 0) * 2 + (p > 4294967296LL);
}
