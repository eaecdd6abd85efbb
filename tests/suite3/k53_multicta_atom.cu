// qgpu: --grid 4 --block 4
// qgpu: a=5,-3,8,0,9,-20,4,4,7,0,-1,13,2,6,-8,3 g=zeros:4 cnts=zeros:4
__global__ void k53_multicta_atom(const int* a, int* g, int* cnts) {
    __shared__ unsigned smax;
    __shared__ int ssum;
    int t = threadIdx.x, b = blockIdx.x;
    if (t == 0) { smax = 0; ssum = 0; }
    __syncthreads();
    int v = a[b * 4 + t];
    atomicMax(&smax, (unsigned)v);
    atomicAdd(&ssum, v);
    int c = __syncthreads_count(v > b);
    if (t == 3) { atomicAdd(&g[0], ssum); atomicMax((unsigned*)&g[1], smax); atomicMin(&g[2], ssum); cnts[b] = c; }
    if (t == 1) atomicSub(&g[3], b * b);
}
