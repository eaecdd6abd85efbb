// Shared-memory tree reduction over 16 threads (4 full warps) with a
// __syncthreads() inside the halving loop; computes sum and max together.
// qgpu: --grid 1 --block 16
// qgpu: in=3,-1,4,1,-5,9,2,-6,5,3,-5,8,9,-7,9,3 out=zeros:2
__global__ void tree_reduce(const int* in, int* out) {
    __shared__ int ssum[16];
    __shared__ int smax[16];
    int t = threadIdx.x;
    int v = in[t];
    ssum[t] = v;
    smax[t] = v;
    __syncthreads();
    for (int s = blockDim.x / 2; s > 0; s >>= 1) {
        if (t < s) {
            ssum[t] += ssum[t + s];
            smax[t] = max(smax[t], smax[t + s]);
        }
        __syncthreads();
    }
    if (t == 0) {
        out[0] = ssum[0];
        out[1] = smax[0];
    }
}
