// Thread 0 bubble-sorts 12 values in shared memory (nested loops with a
// runtime bound and data-dependent swaps) while the others wait at a
// barrier; then every thread copies out 3 values.
// qgpu: --grid 1 --block 4 n=12
// qgpu: in=9,-3,7,7,0,12,-8,5,100,-100,3,1 out=zeros:12
__global__ void single_thread_sort(const int* in, int* out, int n) {
    __shared__ int s[12];
    int t = threadIdx.x;
    for (int i = t; i < n; i += blockDim.x) s[i] = in[i];
    __syncthreads();
    if (t == 0) {
        for (int i = 0; i < n - 1; ++i) {
            for (int j = 0; j < n - 1 - i; ++j) {
                if (s[j] > s[j + 1]) {
                    int tmp = s[j];
                    s[j] = s[j + 1];
                    s[j + 1] = tmp;
                }
            }
        }
    }
    __syncthreads();
    for (int i = t; i < n; i += blockDim.x) out[i] = s[i];
}
