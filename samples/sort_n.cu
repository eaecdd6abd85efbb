// Ascending sort of n <= 32 values: odd-even transposition in shared memory, n phases with a
// barrier each; the 4 threads of one CTA share the compare-exchanges of a phase. qgpu chat's
// `sort(...)`.
// qgpu: --grid 1 --block 4 in=7,-3,5,0,12,-8 out=zeros:6 n=6
__global__ void sort_n(const int* in, int* out, int n) {
    __shared__ int s[32];
    int t = threadIdx.x;
    for (int i = t; i < n; i += blockDim.x) s[i] = in[i];
    __syncthreads();
    for (int phase = 0; phase < n; ++phase) {
        for (int j = 2 * t + (phase & 1); j + 1 < n; j += 2 * blockDim.x) {
            int lo = s[j];
            int hi = s[j + 1];
            s[j] = min(lo, hi);
            s[j + 1] = max(lo, hi);
        }
        __syncthreads();
    }
    for (int i = t; i < n; i += blockDim.x) out[i] = s[i];
}
