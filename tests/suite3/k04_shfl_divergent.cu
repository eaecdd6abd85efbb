// qgpu: --grid 1 --block 16
// qgpu: a=5,1,9,2,8,8,0,-3,7,7,7,7,100,-100,4,3 out=zeros:16
__global__ void k04_shfl_divergent(const int* a, int* out) {
    int t = threadIdx.x;
    int v = a[t];
    int r;
    if (t < 8) {
        int m = v;
        m = max(m, __shfl_xor_sync(0xffu, m, 1, 4));
        m = max(m, __shfl_xor_sync(0xffu, m, 2, 4));
        r = m;
    } else {
        int s = v;
        s += __shfl_down_sync(0xff00u, s, 2, 4);
        s += __shfl_down_sync(0xff00u, s, 1, 4);
        r = __shfl_sync(0xff00u, s, 0, 4) * 2;
    }
    out[t] = r;
}
