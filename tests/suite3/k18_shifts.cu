// qgpu: --grid 1 --block 8
// qgpu: a=-1,-2147483648,-12345,1,0x7fffffff,-8,305419896,-305419896
// qgpu: s=0,31,5,31,16,1,30,7
// qgpu: sr=zeros:8 ur=zeros:8 sl=zeros:8 rot=zeros:8
__global__ void k18_shifts(const int* a, const int* s, int* sr, unsigned* ur, int* sl, unsigned* rot) {
    int t = threadIdx.x;
    int x = a[t]; int k = s[t];
    sr[t] = x >> k;
    ur[t] = (unsigned)x >> k;
    sl[t] = x << k;
    unsigned u = (unsigned)x;
    rot[t] = (u << k) | (u >> ((32 - k) & 31));
}
