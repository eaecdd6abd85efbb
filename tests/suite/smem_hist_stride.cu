// Shared-memory histogram (8 bins on v & 7) filled by a grid-stride loop
// with shared atomicAdd, then merged into the global histogram with one
// global atomicAdd per bin; 2 CTAs of 8 threads, n = 40.
// qgpu: --grid 2 --block 8 n=40
// qgpu: v=0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,-1,-2,-3,-4,100,200,300,400,7,7,7,7,3,3,3,3,21,22,23,24,25,26,27,28
// qgpu: hist=zeros:8
__global__ void smem_hist_stride(const int* v, unsigned int* hist, int n) {
    __shared__ unsigned int sh[8];
    int t = threadIdx.x;
    if (t < 8) sh[t] = 0;
    __syncthreads();
    for (int i = blockIdx.x * blockDim.x + t; i < n; i += blockDim.x * gridDim.x)
        atomicAdd(&sh[v[i] & 7], 1u);
    __syncthreads();
    if (t < 8) atomicAdd(&hist[t], sh[t]);
}
