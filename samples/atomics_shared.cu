// Shared-memory atomics, per CTA: a 4-bin histogram (atomicAdd) plus
// atomicMax/atomicMin, initialized before and read after barriers; each of
// the 2 CTAs writes its own results.
// qgpu: --grid 2 --block 8
// qgpu: in=5,1,12,7,0,8,33,2,-9,-1,-4,-4,-21,-17,-6,-11
// qgpu: hist=zeros:8 bmax=zeros:2 bmin=zeros:2
__global__ void atomics_shared(const int* in, int* hist, int* bmax,
                               int* bmin) {
    __shared__ int sh[4];
    __shared__ int smax;
    __shared__ int smin;
    int t = threadIdx.x;
    if (t < 4) sh[t] = 0;
    if (t == 0) {
        smax = (int)0x80000000;
        smin = 0x7FFFFFFF;
    }
    __syncthreads();
    int v = in[blockIdx.x * blockDim.x + t];
    atomicAdd(&sh[v & 3], 1);
    atomicMax(&smax, v);
    atomicMin(&smin, v);
    __syncthreads();
    if (t < 4) hist[4 * blockIdx.x + t] = sh[t];
    if (t == 0) {
        bmax[blockIdx.x] = smax;
        bmin[blockIdx.x] = smin;
    }
}
