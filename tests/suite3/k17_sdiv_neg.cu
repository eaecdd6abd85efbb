// qgpu: --grid 1 --block 8
// qgpu: a=-2147483648,-2147483648,-2147483648,-7,7,-7,2147483647,-1
// qgpu: b=-2,-3,7,2,-2,-2,-2147483648,-2147483648
// qgpu: q=zeros:8 r=zeros:8 m=zeros:8
__global__ void k17_sdiv_neg(const int* a, const int* b, int* q, int* r, int* m) {
    int t = threadIdx.x;
    int x = a[t], y = b[t];
    q[t] = x / y;
    r[t] = x % y;
    m[t] = (x % 5) * 100 + (x / 4) % 9 + (x >> 3) / -3;
}
