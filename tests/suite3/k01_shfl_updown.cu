// qgpu: --grid 1 --block 8
// qgpu: u0=zeros:8 u3=zeros:8 u4=zeros:8 d0=zeros:8 d3=zeros:8 d5=zeros:8 uv=zeros:8
__global__ void k01_shfl_updown(int* u0, int* u3, int* u4, int* d0, int* d3, int* d5, int* uv) {
    int t = threadIdx.x;
    int v = t * 10 + 1;
    u0[t] = __shfl_up_sync(0xf << (t & 4), v, 0, 4);
    u3[t] = __shfl_up_sync(0xf << (t & 4), v, 3, 4);
    u4[t] = __shfl_up_sync(0xf << (t & 4), v, 4, 4);
    d0[t] = __shfl_down_sync(0xf << (t & 4), v, 0, 4);
    d3[t] = __shfl_down_sync(0xf << (t & 4), v, 3, 4);
    d5[t] = __shfl_down_sync(0xf << (t & 4), v, 5, 4);
    unsigned dd = (unsigned)(t % 3);
    uv[t] = __shfl_up_sync(0xf << (t & 4), v, dd, 4) + 1000 * __shfl_down_sync(0xf << (t & 4), v, dd + 1, 4);
}
