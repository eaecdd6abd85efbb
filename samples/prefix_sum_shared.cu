// Hillis-Steele inclusive scan in shared memory: each step reads, hits a
// barrier, then writes and hits another barrier (barriers inside a loop).
// qgpu: --grid 1 --block 8 in=3,1,-4,1,5,-9,2,6 out=zeros:8
__global__ void prefix_sum_shared(const int* in, int* out) {
    __shared__ int s[8];
    int t = threadIdx.x;
    s[t] = in[t];
    __syncthreads();
    for (int off = 1; off < blockDim.x; off <<= 1) {
        int add = t >= off ? s[t - off] : 0;
        __syncthreads();
        s[t] += add;
        __syncthreads();
    }
    out[t] = s[t];
}
