// Elementary cellular automaton (rule number a parameter) on 16 cells with
// wrap-around, double-buffered in shared memory for a parameter number of
// generations (barriers in a data-dependent loop); also the population of
// each generation via __syncthreads_count. 16 threads.
// qgpu: --grid 1 --block 16 rule=110 gens=6
// qgpu: init=0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,1
// qgpu: out=zeros:16 pop=zeros:6
__global__ void rule110(const int* init, int* out, int* pop, int rule, int gens) {
    __shared__ int a[16], b[16];
    int t = threadIdx.x;
    int n = blockDim.x;
    a[t] = init[t] & 1;
    __syncthreads();
    for (int g = 0; g < gens; ++g) {
        int l = a[(t + n - 1) % n], c = a[t], r = a[(t + 1) % n];
        int idx = (l << 2) | (c << 1) | r;
        int v = (rule >> idx) & 1;
        b[t] = v;
        int p = __syncthreads_count(v);
        if (t == 0) pop[g] = p;
        a[t] = b[t];
        __syncthreads();
    }
    out[t] = a[t];
}
