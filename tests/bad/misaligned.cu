// Run-time fault: a misaligned 4-byte load. a starts at byte address 0, and
// with off=2 thread 0 (CTA 0, warp 0, lane 0) loads 4 bytes from address 2 = 0x2.
// qgpu: --grid 1 --block 4 a=1,2,3,4,5 out=zeros:4 off=2
__global__ void misaligned(const int* a, int* out, int off) {
    int i = threadIdx.x;
    const int* p = (const int*)((const char*)a + off);
    out[i] = p[i];  // BAD: address 2 + 4*i is not a multiple of 4
}
