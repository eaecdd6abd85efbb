// Run-time fault: shared memory out of bounds. s has 4 ints (16 bytes) but the
// block has 8 threads; thread 4 (CTA 0, warp 1, lane 0) is the first to write
// s[4], at shared byte address 16 = 0x10.
// qgpu: --grid 1 --block 8 out=zeros:8
__global__ void oob_shared(int* out) {
    __shared__ int s[4];
    int i = threadIdx.x;
    s[i] = i * 10;  // BAD: s[4..7] do not exist
    __syncthreads();
    out[i] = s[i & 3];
}
