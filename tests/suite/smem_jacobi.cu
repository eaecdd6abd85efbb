// Iterative smoothing in shared memory: a loop with two barriers per
// iteration (read phase, write phase); signed division by 3 of negatives.
// qgpu: --grid 1 --block 6 iters=5
// qgpu: in=90,-30,0,600,-1200,7 out=zeros:6
__global__ void smem_jacobi(const int* in, int* out, int iters) {
    __shared__ int s[6];
    int t = threadIdx.x;
    int n = blockDim.x;
    s[t] = in[t];
    __syncthreads();
    for (int k = 0; k < iters; ++k) {
        int l = s[(t + n - 1) % n];
        int r = s[(t + 1) % n];
        int v = (l + s[t] + r) / 3;
        __syncthreads();
        s[t] = v + k;
        __syncthreads();
    }
    out[t] = s[t];
}
