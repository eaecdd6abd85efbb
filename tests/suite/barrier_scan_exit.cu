// Hillis-Steele inclusive scan in shared memory with two barriers per step;
// threads t >= n return before the first barrier (10 threads, n = 7).
// qgpu: --grid 1 --block 10 n=7
// qgpu: in=5,-2,7,1,-8,3,3,99,99,99 out=zeros:10
__global__ void barrier_scan_exit(const int* in, int* out, int n) {
    __shared__ int s[10];
    int t = threadIdx.x;
    if (t >= n) return;
    s[t] = in[t];
    __syncthreads();
    for (int off = 1; off < n; off <<= 1) {
        int v = s[t];
        if (t >= off) v += s[t - off];
        __syncthreads();
        s[t] = v;
        __syncthreads();
    }
    out[t] = s[t];
}
