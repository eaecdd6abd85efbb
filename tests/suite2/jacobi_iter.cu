// Iterated 3-point smoothing (Jacobi) of 16 values in shared memory with a
// double buffer; the iteration count is a kernel parameter, so the barriers
// sit inside a data-dependent loop. Ends clamp to the edge. 16 threads.
// qgpu: --grid 1 --block 16 iters=5
// qgpu: in=0,0,0,0,0,0,0,1000,0,0,0,0,0,0,0,-999
// qgpu: out=zeros:16
__global__ void jacobi_iter(const int* in, int* out, int iters) {
    __shared__ int a[16], b[16];
    int t = threadIdx.x;
    int n = blockDim.x;
    a[t] = in[t];
    __syncthreads();
    for (int it = 0; it < iters; ++it) {
        int l = a[t > 0 ? t - 1 : 0];
        int r = a[t < n - 1 ? t + 1 : n - 1];
        b[t] = (l + 2 * a[t] + r) / 4;
        __syncthreads();
        a[t] = b[t];
        __syncthreads();
    }
    out[t] = a[t];
}
