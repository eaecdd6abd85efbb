// qgpu: --grid 2 --block 4
// qgpu: a=1,2,3,4,10,20,30,40 n=3 out=zeros:8
__global__ void k11_barrier_loop(const int* a, int n, int* out) {
    __shared__ int buf[4];
    int t = threadIdx.x;
    int v = a[blockIdx.x * 4 + t];
    for (int it = 0; it < n; ++it) {
        buf[t] = v;
        __syncthreads();
        v = v + buf[(t + 1) & 3] * (blockIdx.x + 1);
        __syncthreads();
    }
    out[blockIdx.x * 4 + t] = v;
}
