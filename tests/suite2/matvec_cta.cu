// y = M x for a 4x8 matrix: 4 CTAs of 4 threads, CTA c owns row c; the
// vector is staged in shared memory, each thread does 2 columns, and the
// row sum is a width-4 __shfl_down_sync reduction; lane 0 writes y[c] and
// adds it to a global total with atomicAdd.
// qgpu: --grid 4 --block 4
// qgpu: M=1,2,3,4,5,6,7,8,-1,-2,-3,-4,-5,-6,-7,-8,0,1,0,1,0,1,0,1,100,-100,100,-100,3,3,3,3
// qgpu: x=1,1,2,2,3,3,-4,-4 y=zeros:4 total=zeros:1
__global__ void matvec_cta(const int* M, const int* x, int* y, int* total) {
    __shared__ int sx[8];
    int t = threadIdx.x;
    int row = blockIdx.x;
    sx[t] = x[t];
    sx[t + 4] = x[t + 4];
    __syncthreads();
    int acc = M[row * 8 + t] * sx[t] + M[row * 8 + t + 4] * sx[t + 4];
    for (int off = 2; off > 0; off >>= 1) acc += __shfl_down_sync(0xfu, acc, off, 4);
    if (t == 0) {
        y[row] = acc;
        atomicAdd(total, acc);
    }
}
