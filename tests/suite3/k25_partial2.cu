// qgpu: --grid 2 --block 2
// qgpu: a=5,-3,8,0 out=zeros:4 bal=zeros:4
__global__ void k25_partial2(const int* a, int* out, unsigned* bal) {
    int t = threadIdx.x;
    int i = blockIdx.x * 2 + t;
    int v = a[i];
    out[i] = v + __shfl_xor_sync(0x3u, v, 1, 4) * 10 + __shfl_up_sync(0x3u, v, 1, 4) * 100;
    bal[i] = __ballot_sync(0xffffffffu, v > 0) + __any_sync(0xffffffffu, v == 0) * 16 + __all_sync(0xffffffffu, v != 1) * 32;
}
