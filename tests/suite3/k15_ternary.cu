// qgpu: --grid 1 --block 8
// qgpu: a=-100,-1,0,1,50,99,100,1000 out=zeros:8
__global__ void k15_ternary(const int* a, int* out) {
    int t = threadIdx.x;
    int x = a[t];
    int r = x < 0 ? (x < -50 ? -2 : -1) : x == 0 ? 0 : x < 100 ? (x & 1 ? 1 : 2) : x > 500 ? 4 : 3;
    out[t] = r * 100 + (x > t) - (x < t);
}
