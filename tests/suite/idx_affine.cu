// Global index from blockIdx/blockDim/threadIdx over 2 CTAs of 6 threads
// (two warps each, the second half-empty); a bounds guard leaves the last
// element untouched.
// qgpu: --grid 2 --block 6 n=11
// qgpu: a=3,-7,12,0,5,100,-100,700000000,9,-1,4,77
// qgpu: b=1,2,3,4,5,6,7,8,9,10,11,12 out=zeros:12
__global__ void idx_affine(const int* a, const int* b, int* out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        out[i] = 3 * a[i] - b[i] + i;
    }
}
