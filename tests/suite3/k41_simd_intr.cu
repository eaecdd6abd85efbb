// qgpu: --grid 1 --block 4
// qgpu: a=0x01fe7f80,0xffffffff,0x12345678,0x80808080 b=0x01017f81,0x01010101,0x87654321,0x7f7f7f7f
// qgpu: va=zeros:4 vd=zeros:4 dp=zeros:4
__global__ void k41_simd_intr(const unsigned* a, const unsigned* b, unsigned* va, unsigned* vd, int* dp) {
    int t = threadIdx.x;
    va[t] = __vadd4(a[t], b[t]);
    vd[t] = __vabsdiffu4(a[t], b[t]);
    dp[t] = __dp4a((int)a[t], (int)b[t], 10);
}
