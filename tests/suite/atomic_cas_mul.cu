// A custom atomic multiply built from an atomicCAS retry loop (product is
// order independent), on a global word and on a per-CTA shared word;
// 2 CTAs of 4 threads.
// qgpu: --grid 2 --block 4
// qgpu: f=3,5,7,11,13,17,19,2147483647 prod=1 cta=zeros:2
__device__ unsigned int atomic_mul(unsigned int* addr, unsigned int v) {
    unsigned int old = *addr, assumed;
    do {
        assumed = old;
        old = atomicCAS(addr, assumed, assumed * v);
    } while (assumed != old);
    return old;
}

__global__ void atomic_cas_mul(const unsigned int* f, unsigned int* prod,
                               unsigned int* cta) {
    __shared__ unsigned int sp;
    unsigned int v = f[blockIdx.x * blockDim.x + threadIdx.x];
    if (threadIdx.x == 0) sp = 1u;
    __syncthreads();
    atomic_mul(prod, v);
    atomic_mul(&sp, v + 1u);
    __syncthreads();
    if (threadIdx.x == 0) cta[blockIdx.x] = sp;
}
