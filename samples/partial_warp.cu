// A 9-thread CTA: warps of 4, 4 and 1 lanes. Uses warp/lane ids, a shared
// buffer read at (t + 1) % blockDim.x (variable remainder) after a barrier,
// and an atomicAdd thread count (must be 9).
// qgpu: --grid 1 --block 9 in=10,20,30,40,50,60,70,80,90
// qgpu: out=zeros:9 nb=zeros:9 ids=zeros:9 count=zeros:1
__global__ void partial_warp(const int* in, int* out, int* nb, int* ids,
                             int* count) {
    __shared__ int s[9];
    int t = threadIdx.x;
    int v = in[t];
    s[t] = v;
    out[t] = v * (t + 1) + (int)blockDim.x;
    ids[t] = (t >> 2) * 10 + (t & 3);
    atomicAdd(count, 1);
    __syncthreads();
    nb[t] = s[(t + 1) % blockDim.x];
}
