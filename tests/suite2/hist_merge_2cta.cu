// Histogram of (v >> 2) & 7 over n = 48 values: 2 CTAs of 8 threads fill a
// shared histogram with a grid-stride loop and shared atomicAdd, track the
// per-CTA maximum with shared atomicMax, then merge into global memory with
// one global atomicAdd per bin and a global atomicMax.
// qgpu: --grid 2 --block 8 n=48
// qgpu: v=0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,22,23,24,25,26,27,28,29,30,31,-1,-5,-9,-13,-17,-21,-25,-29,100,200,300,400,500,600,700,800
// qgpu: hist=zeros:8 gmax=zeros:1 ctamax=zeros:2
__global__ void hist_merge_2cta(const int* v, unsigned int* hist, int* gmax,
                                int* ctamax, int n) {
    __shared__ unsigned int sh[8];
    __shared__ int smax;
    int t = threadIdx.x;
    if (t < 8) sh[t] = 0u;
    if (t == 0) smax = -2147483647 - 1;
    __syncthreads();
    for (int i = blockIdx.x * blockDim.x + t; i < n; i += blockDim.x * gridDim.x) {
        int x = v[i];
        atomicAdd(&sh[(x >> 2) & 7], 1u);
        atomicMax(&smax, x);
    }
    __syncthreads();
    if (t < 8 && sh[t] != 0u) atomicAdd(&hist[t], sh[t]);
    if (t == 0) {
        ctamax[blockIdx.x] = smax;
        atomicMax(gmax, smax);
    }
}
