// qgpu: --grid 1 --block 8
// qgpu: a=0,1,-1,2,0,5,-3,0 b=0,0,1,2,3,0,-3,-1 out=zeros:8
__global__ void k32_bool_logic(const int* a, const int* b, int* out) {
    int t = threadIdx.x;
    int x = a[t], y = b[t];
    int r = (!x) + ((x && y) << 1) + ((x || y) << 2) + ((x == y) << 3) + ((!!x ^ !!y) << 4) + ((x > y) << 5) + (((unsigned)x > (unsigned)y) << 6) + (~x & 0x7f) * 1000;
    out[t] = r;
}
