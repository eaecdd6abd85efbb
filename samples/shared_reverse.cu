// Per-CTA shared memory: each of two CTAs stages its 8-element segment in
// shared memory, synchronizes, and writes it back reversed.
// qgpu: --grid 2 --block 8
// qgpu: in=1,2,3,4,5,6,7,8,-1,-2,-3,-4,-5,-6,-7,-8 out=zeros:16
__global__ void shared_reverse(const int* in, int* out) {
    __shared__ int s[8];
    int t = threadIdx.x;
    int base = blockIdx.x * blockDim.x;
    s[t] = in[base + t];
    __syncthreads();
    out[base + t] = s[blockDim.x - 1 - t];
}
