// Combination over 2 CTAs of 8: grid-stride partial sums and maxima, a
// width-4 shuffle reduction per group, group results through shared memory
// (barrier), then per-CTA global atomics (add, max) and a shared atomic
// count of threads that saw a negative value.
// qgpu: --grid 2 --block 8 n=36
// qgpu: v=3,-1,4,1,-5,9,2,-6,5,3,-5,8,9,-7,9,3,2,-3,8,4,6,-2,6,4,3,3,8,3,2,-7,9,5,0,2,8,8
// qgpu: sum=zeros:1 mx=-2147483648 negthr=zeros:2 grp=zeros:4
__global__ void warp_smem_combo(const int* v, int* sum, int* mx, int* negthr, int* grp, int n) {
    __shared__ int gs[2], gm[2];
    __shared__ int neg;
    int t = threadIdx.x;
    if (t == 0) neg = 0;
    __syncthreads();
    int s = 0, m = -2147483647 - 1, sawneg = 0;
    for (int i = blockIdx.x * blockDim.x + t; i < n; i += blockDim.x * gridDim.x) {
        int x = v[i];
        s += x;
        m = max(m, x);
        if (x < 0) sawneg = 1;
    }
    if (sawneg) atomicAdd(&neg, 1);
    unsigned int mask = 0xfu << (t & 4);
    for (int off = 1; off < 4; off <<= 1) {
        s += __shfl_xor_sync(mask, s, off, 4);
        m = max(m, __shfl_xor_sync(mask, m, off, 4));
    }
    if ((t & 3) == 0) {
        gs[t >> 2] = s;
        gm[t >> 2] = m;
        grp[blockIdx.x * 2 + (t >> 2)] = s;
    }
    __syncthreads();
    if (t == 0) {
        atomicAdd(sum, gs[0] + gs[1]);
        atomicMax(mx, max(gm[0], gm[1]));
        negthr[blockIdx.x] = neg;
    }
}
