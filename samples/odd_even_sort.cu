// Odd-even transposition sort of 8 values in shared memory by 4 threads:
// 8 phases with a barrier each, alternating the pairs compared; the
// compare-exchange uses min/max.
// qgpu: --grid 1 --block 4 in=7,-3,5,0,12,-8,5,1 out=zeros:8
__global__ void odd_even_sort(const int* in, int* out) {
    __shared__ int s[8];
    int t = threadIdx.x;
    s[2 * t] = in[2 * t];
    s[2 * t + 1] = in[2 * t + 1];
    __syncthreads();
#pragma unroll 1
    for (int phase = 0; phase < 8; ++phase) {
        int j = 2 * t + (phase & 1);
        if (j + 1 < 8) {
            int lo = s[j];
            int hi = s[j + 1];
            s[j] = min(lo, hi);
            s[j + 1] = max(lo, hi);
        }
        __syncthreads();
    }
    out[2 * t] = s[2 * t];
    out[2 * t + 1] = s[2 * t + 1];
}
