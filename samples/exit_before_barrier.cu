// Threads with t >= n exit before a barrier (lanes 6-7 leave warp 1 half
// full); the remaining threads exchange data through shared memory across
// the barrier, which only waits for non-exited threads.
// qgpu: --grid 1 --block 8 in=4,8,15,16,23,42,99,99 out=zeros:8 n=6
__global__ void exit_before_barrier(const int* in, int* out, int n) {
    __shared__ int s[8];
    int t = threadIdx.x;
    if (t >= n) return;
    s[t] = in[t] * 2;
    __syncthreads();
    out[t] = s[n - 1 - t] - s[t];
}
