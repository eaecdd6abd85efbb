// qgpu: --grid 1 --block 8
// qgpu: n=0,1,2,3,4,5,6,7 a=zeros:8 b=zeros:8
__global__ void k50_unroll_rem(const int* n, int* a, int* b) {
    int t = threadIdx.x;
    int m = n[t];
    int s = 0, p = 1;
    for (int i = 0; i < m; ++i) { s += i * i - t; p = p * (i + 2) % 1009; }
    a[t] = s;
    b[t] = p;
}
