// qgpu: --grid 1 --block 4
// qgpu: a=10,20,30,40 out=zeros:4
__global__ void k63_shfl_partial_mask(const int* a, int* out) {
    int t = threadIdx.x;
    int v = a[t];
    if ((t & 1) == 0) {
        v += __shfl_xor_sync(0x5u, v, 2, 4);
        __syncwarp(0x5u);
    } else {
        v -= __shfl_sync(0xau, v, 3 - (t & 2), 4);
    }
    out[t] = v;
}
