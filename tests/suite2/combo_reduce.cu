// Combination: grid-stride loop with divergence (positives summed, negatives
// counted, zeros skipped), a shared-memory tree reduction with barriers, and
// global atomics (add, max) from thread 0 of each CTA. 2 CTAs of 8 threads.
// qgpu: --grid 2 --block 8 n=40
// qgpu: data=5,-3,0,7,2,-8,9,0,-1,4,6,-6,3,3,0,-2,10,11,-12,13,0,0,1,2,-3,4,5,6,-7,8,9,-10,20,-20,30,0,1,1,1,-1
// qgpu: sum=zeros:1 negs=zeros:1 bmax=-2147483648 bsum=zeros:2
__global__ void combo_reduce(const int* data, int* sum, int* negs, int* bmax, int* bsum, int n) {
    __shared__ int sp[8];
    __shared__ int sn[8];
    int t = threadIdx.x;
    int ps = 0, nc = 0;
    for (int i = blockIdx.x * blockDim.x + t; i < n; i += blockDim.x * gridDim.x) {
        int v = data[i];
        if (v == 0) continue;
        if (v > 0) ps += v;
        else nc++;
    }
    sp[t] = ps;
    sn[t] = nc;
    __syncthreads();
    for (int s = blockDim.x / 2; s > 0; s >>= 1) {
        if (t < s) {
            sp[t] += sp[t + s];
            sn[t] += sn[t + s];
        }
        __syncthreads();
    }
    if (t == 0) {
        atomicAdd(sum, sp[0]);
        atomicAdd(negs, sn[0]);
        atomicMax(bmax, sp[0]);
        bsum[blockIdx.x] = sp[0];
    }
}
