// Two CTAs of 6 threads each (two warps per CTA, the second partial).
// out[2*gid] encodes gridDim/blockDim/blockIdx/threadIdx as decimal digits
// (gridDim*10000 + blockDim*1000 + blockIdx*100 + threadIdx);
// out[2*gid+1] is a per-CTA shared-memory rotation of in * (blockIdx + 1).
// qgpu: --grid 2 --block 6 in=1,2,3,4,5,6,7,8,9,10,11,12 out=zeros:24
__global__ void multi_cta_ids(const int* in, int* out) {
    __shared__ int s[6];
    int t = threadIdx.x;
    int b = blockIdx.x;
    int gid = b * blockDim.x + t;
    out[2 * gid] = gridDim.x * 10000 + blockDim.x * 1000 + b * 100 + t;
    s[t] = in[gid] * (b + 1);
    __syncthreads();
    int src = t == 0 ? blockDim.x - 1 : t - 1;
    out[2 * gid + 1] = s[src];
}
