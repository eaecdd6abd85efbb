// Barriers for the circuit tests: two CTAs of 6 threads (4 warps, two of them half full),
// three rounds of exchange through shared memory with two barriers each (so every CTA is
// released six times: parities 1, 0, 1, 0, 1, 0), and one thread of CTA 1 that exits before
// the first barrier (a barrier waits only for threads that have not exited).
// qgpu: --grid 2 --block 6 in=5,-7,11,300,2,9,40,-1,77,6,1000,-3 out=zeros:12
__global__ void barrier_rounds(const int* in, int* out) {
    __shared__ int s[6];
    int t = threadIdx.x;
    int c = blockIdx.x;
    if (c == 1 && t == 2) return;
    int x = in[c * 6 + t];
    for (int k = 0; k < 3; k++) {
        s[t] = x;
        __syncthreads();
        int j = t + 1 == 6 ? 0 : t + 1;
        if (c == 1 && j == 2) j = 3;
        x = x + s[j] * (k + 1);
        __syncthreads();
    }
    out[c * 6 + t] = x;
}
