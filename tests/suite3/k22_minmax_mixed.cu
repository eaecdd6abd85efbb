// qgpu: --grid 1 --block 8
// qgpu: a=-1,-5,3,-2147483648,0,7,-7,100
// qgpu: b=1,2,3,4,0,4294967295,4294967290,2147483648
// qgpu: mn=zeros:8 mx=zeros:8 tc=zeros:8 cmp=zeros:8
__global__ void k22_minmax_mixed(const int* a, const unsigned* b, unsigned* mn, unsigned* mx, unsigned* tc, int* cmp) {
    int t = threadIdx.x;
    int x = a[t]; unsigned y = b[t];
    mn[t] = min(x, y);
    mx[t] = max(x, y);
    tc[t] = x < y ? x : y;
    cmp[t] = (x < y) * 4 + (x < (int)y) * 2 + (x > -1);
}
