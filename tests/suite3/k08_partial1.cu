// qgpu: --grid 3 --block 1
// qgpu: a=4,-2,9 out=zeros:3 b=zeros:3
__global__ void k08_partial1(const int* a, int* out, unsigned* b) {
    int c = blockIdx.x;
    int v = a[c];
    out[c] = __shfl_sync(0x1u, v, 0, 4) + __shfl_xor_sync(0x1u, v, 0, 4);
    b[c] = __ballot_sync(0xffffffffu, v > 0) | (__activemask() << 4);
}
