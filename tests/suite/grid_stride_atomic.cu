// Grid-stride loop over n = 45 elements with 4 CTAs of 3 threads (12
// threads: each does 3 or 4 iterations), in-place update plus per-thread
// partials combined with global atomics.
// qgpu: --grid 4 --block 3 n=45
// qgpu: a=1,-2,3,-4,5,-6,7,-8,9,-10,11,-12,13,-14,15,-16,17,-18,19,-20,21,-22,23,-24,25,-26,27,-28,29,-30,31,-32,33,-34,35,-36,37,-38,39,-40,41,-42,43,-44,45
// qgpu: sum=zeros:1 negs=zeros:1 iters=zeros:12
__global__ void grid_stride_atomic(int* a, int* sum, unsigned int* negs,
                                   int* iters, int n) {
    int tid = blockIdx.x * blockDim.x + threadIdx.x;
    int stride = gridDim.x * blockDim.x;
    int local = 0;
    unsigned int neg = 0;
    int k = 0;
    for (int i = tid; i < n; i += stride) {
        int v = a[i];
        local += v;
        neg += v < 0;
        a[i] = v * 2 - i;
        ++k;
    }
    atomicAdd(sum, local);
    atomicAdd(negs, neg);
    iters[tid] = k;
}
