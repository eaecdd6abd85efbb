// Two CTAs of 8: each scans its slice in shared memory (Hillis-Steele, two
// barriers per step), writes the local scan and CTA ids, and publishes its
// total with atomicAdd; a global atomicMax records the largest total.
// qgpu: --grid 2 --block 8
// qgpu: in=1,1,1,1,1,1,1,1,5,-3,8,0,2,-9,4,4
// qgpu: out=zeros:16 ids=zeros:16 total=zeros:1 best=-1000
__global__ void multi_cta_scan(const int* in, int* out, int* ids, int* total,
                               int* best) {
    __shared__ int s[8];
    int t = threadIdx.x;
    int gi = blockIdx.x * blockDim.x + t;
    s[t] = in[gi];
    __syncthreads();
    for (int off = 1; off < (int)blockDim.x; off *= 2) {
        int add = t >= off ? s[t - off] : 0;
        __syncthreads();
        s[t] += add;
        __syncthreads();
    }
    out[gi] = s[t];
    ids[gi] = (int)(blockIdx.x * 100 + gridDim.x * 10 + blockDim.x);
    if (t == blockDim.x - 1) {
        atomicAdd(total, s[t]);
        atomicMax(best, s[t]);
    }
}
