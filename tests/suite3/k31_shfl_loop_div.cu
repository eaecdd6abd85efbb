// qgpu: --grid 1 --block 12
// qgpu: a=1,2,3,4,5,6,7,8,9,10,11,12 out=zeros:12
__global__ void k31_shfl_loop_div(const int* a, int* out) {
    int t = threadIdx.x;
    int v = a[t];
    int g = t >> 2;
    unsigned m = 0xfu << (g * 4);
    for (int r = 0; r <= g; ++r) {
        v += __shfl_up_sync(m, v, 1, 4);
        if (g == 2) v ^= __shfl_sync(m, v, 3, 4);
    }
    if (t & 1) out[t] = v; else out[t] = -v;
}
