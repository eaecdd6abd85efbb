// Run-time fault: a negative index. a is the first array (byte address 0), so
// thread 0 (CTA 0, warp 0, lane 0) reads a[-1] at address -4 = 0xfffffffc.
// qgpu: --grid 1 --block 4 a=1,2,3,4 out=zeros:4
__global__ void oob_negative(const int* a, int* out) {
    int i = threadIdx.x;
    out[i] = a[i - 1];  // BAD: a[-1] for thread 0
}
