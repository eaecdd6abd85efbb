// qgpu: --grid 1 --block 8
// qgpu: a=5,-3,8,0,9,-20,4,4 b=1,2,3,4,5,6,7,8 out=zeros:8 c=zeros:1
__global__ void k58_ifconv(const int* a, int* b, int* out, int* c) {
    int t = threadIdx.x;
    int x = a[t];
    int r = x;
    if (x > 3) { r = x * 2; b[t] = -b[t]; }
    else if (x < -5) { r = -x; atomicAdd(c, 1); }
    else { r = x + 100; }
    if (t & 1) r ^= 0xff;
    if (r > 100 && (t & 2)) r -= 1000;
    out[t] = r;
}
