// Run-time fault: a shuffle whose source lane is in another 4-lane warp of the
// machine. Thread 0 (CTA 0, warp 0, lane 0) reads from lane 0 + 4 = 4, warp 1.
// qgpu: --grid 1 --block 8 out=zeros:8
__global__ void shfl_cross_warp(int* out) {
    int i = threadIdx.x;
    out[i] = __shfl_down_sync(0xffffffffu, i * 3, 4);  // BAD: source lane 4
}
