// qgpu: --grid 1 --block 8
// qgpu: a=-1,1,-2147483648,2147483647,-5,123456789,0,-123456789
// qgpu: o1=zeros:8 o2=zeros:8 o3=zeros:8 o4=zeros:8 o5=zeros:8
__global__ void k57_i64_const(const int* a, int* o1, unsigned* o2, int* o3, int* o4, int* o5) {
    int t = threadIdx.x;
    long long x = (long long)a[t] * 1000003LL + t;
    unsigned long long ux = (unsigned long long)x;
    o1[t] = (int)(x >> 33);
    o2[t] = (unsigned)(ux >> 40);
    o3[t] = (int)((x << 7) >> 32);
    o4[t] = (x < -5000000LL) + (x >= 1000003LL) * 2 + (ux > 10ull) * 4 + (x == -1000003LL) * 8;
    long long y = x - 0x123456789LL;
    o5[t] = (int)(y >> 32) ^ (int)y;
}
