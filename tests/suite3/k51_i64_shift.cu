// qgpu: --grid 1 --block 8
// qgpu: a=-1,1,-2147483648,2147483647,-5,123456789,0,-123456789
// qgpu: k=0,1,31,32,33,40,63,17
// qgpu: o1=zeros:8 o2=zeros:8 o3=zeros:8 o4=zeros:8
__global__ void k51_i64_shift(const int* a, const int* k, int* o1, unsigned* o2, int* o3, int* o4) {
    int t = threadIdx.x;
    long long x = (long long)a[t] * 1000003LL;
    int s = k[t];
    o1[t] = (int)(x >> s);
    o2[t] = (unsigned)((unsigned long long)x >> s);
    o3[t] = (int)((x << s) >> 32);
    o4[t] = (x < -5000000LL) + (x >= 1000003LL) * 2 + ((unsigned long long)x > 10ull) * 4;
}
