// Four features in one kernel, 16 threads: a grid-stride style loop over
// 32 values building a shared 8-bin histogram with shared atomicAdd, a
// Hillis-Steele exclusive scan of the bins (barriers in the loop), a full
// mask ballot of "my bin is non-empty", width-4 shuffle sums, and global
// atomics for the totals.
// qgpu: --grid 1 --block 16 n=32
// qgpu: v=0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,1,1,1,1,3,3,3,3,5,5,5,5,7,7,0,-1
// qgpu: offs=zeros:8 bal=zeros:1 gsum=zeros:4 total=zeros:1 mx=zeros:1
__global__ void mega_combo(const int* v, int* offs, unsigned int* bal, int* gsum, int* total,
                           int* mx, int n) {
    __shared__ int h[8], sc[2][8];
    int t = threadIdx.x;
    if (t < 8) h[t] = 0;
    __syncthreads();
    int mine = 0;
    for (int i = t; i < n; i += blockDim.x) {
        int x = v[i];
        atomicAdd(&h[x & 7], 1);
        mine += x;
    }
    __syncthreads();
    int cur = 0;
    if (t < 8) sc[0][t] = h[t];
    __syncthreads();
    for (int off = 1; off < 8; off <<= 1) {
        if (t < 8) sc[1 - cur][t] = sc[cur][t] + (t >= off ? sc[cur][t - off] : 0);
        cur = 1 - cur;
        __syncthreads();
    }
    if (t < 8) offs[t] = sc[cur][t] - h[t];
    unsigned int b = __ballot_sync(0xffffffffu, t < 8 && h[t] > 2);
    if (t == 0) bal[0] = b;
    unsigned int gm = 0xfu << (t & 12);
    int s = mine;
    s += __shfl_xor_sync(gm, s, 1, 4);
    s += __shfl_xor_sync(gm, s, 2, 4);
    if ((t & 3) == 0) {
        gsum[t >> 2] = s;
        atomicAdd(total, s);
    }
    atomicMax(mx, mine);
}
