// 2 CTAs of 8 threads: each CTA loads its 8 values plus a halo of one on
// each side (clamped to the array) into shared memory and applies a
// 3-point max-minus-min stencil 3 times (halo fixed), barriers in the loop.
// qgpu: --grid 2 --block 8 iters=3
// qgpu: in=1,5,2,8,3,9,4,7,6,0,10,-3,12,-5,14,2
// qgpu: out=zeros:16
__global__ void stencil_iter_2cta(const int* in, int* out, int iters) {
    __shared__ int s[10];
    __shared__ int d[10];
    int t = threadIdx.x;
    int g = blockIdx.x * blockDim.x + t;
    int n = gridDim.x * blockDim.x;
    s[t + 1] = in[g];
    if (t == 0) s[0] = in[g > 0 ? g - 1 : 0];
    if (t == blockDim.x - 1) s[t + 2] = in[g + 1 < n ? g + 1 : n - 1];
    __syncthreads();
    if (t == 0) { d[0] = s[0]; d[9] = s[9]; }
    for (int k = 0; k < iters; ++k) {
        int l = s[t], m = s[t + 1], r = s[t + 2];
        d[t + 1] = max(max(l, m), r) - min(min(l, m), r) + (m >> 1);
        __syncthreads();
        s[t + 1] = d[t + 1];
        __syncthreads();
    }
    out[g] = s[t + 1];
}
