// Integer matrix power A^p (4x4, p a parameter) by repeated multiplication
// in shared memory, one element per thread, two barriers per step inside a
// data-dependent loop; values wrap modulo 2^32 (unsigned). 16 threads.
// qgpu: --grid 1 --block 16 p=5
// qgpu: A=1,1,0,0,1,0,1,0,0,1,0,1,2,0,0,3
// qgpu: out=zeros:16 tr=zeros:1
__global__ void matpow_smem(const unsigned int* A, unsigned int* out, unsigned int* tr, int p) {
    __shared__ unsigned int a[16], r[16];
    int t = threadIdx.x;
    int i = t >> 2, j = t & 3;
    a[t] = A[t];
    r[t] = (i == j) ? 1u : 0u;
    __syncthreads();
    for (int s = 0; s < p; ++s) {
        unsigned int acc = 0u;
        for (int k = 0; k < 4; ++k) acc += r[i * 4 + k] * a[k * 4 + j];
        __syncthreads();
        r[t] = acc;
        __syncthreads();
    }
    out[t] = r[t];
    if (i == j) atomicAdd(tr, r[t]);
}
