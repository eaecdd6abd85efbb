// qgpu: --grid 1 --block 8
// qgpu: a=-2147483648,2147483647,-1,0,1,-100,100,-7 out=zeros:8 o2=zeros:8
__global__ void k60_sign_idioms(const int* a, int* out, int* o2) {
    int t = threadIdx.x;
    int x = a[t];
    int sgn = (x > 0) - (x < 0);
    int m = x >> 31;
    int ab = (x ^ m) - m;
    out[t] = sgn * 7 + (ab & 0xffff) + (int)((unsigned)x >> 31) * 1000000;
    o2[t] = max(x, -x) + min(x, ~x) + (x == (int)0x80000000 ? 3 : 0);
}
