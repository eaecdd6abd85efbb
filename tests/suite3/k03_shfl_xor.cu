// qgpu: --grid 1 --block 16
// qgpu: x1=zeros:16 x2=zeros:16 x3=zeros:16 x3w32=zeros:16 sum=zeros:16
__global__ void k03_shfl_xor(int* x1, int* x2, int* x3, int* x3w32, int* sum) {
    int t = threadIdx.x;
    int v = t * t + 1;
    x1[t] = __shfl_xor_sync(0xffffu, v, 1, 4);
    x2[t] = __shfl_xor_sync(0xffffu, v, 2, 4);
    x3[t] = __shfl_xor_sync(0xffffu, v, 3, 4);
    x3w32[t] = __shfl_xor_sync(0xffffu, v, 3);
    int s = v;
    for (int o = 1; o < 4; o <<= 1) s += __shfl_xor_sync(0xffffu, s, o, 4);
    sum[t] = s;
}
