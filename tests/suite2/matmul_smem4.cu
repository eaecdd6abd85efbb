// 4x4 integer matmul C = A*B with both operands staged in shared memory,
// one thread per output element; the diagonal is summed into a trace with
// atomicAdd and each row's maximum goes to rmax with atomicMax. 16 threads.
// qgpu: --grid 1 --block 16
// qgpu: A=1,2,3,4,-1,0,5,7,2,2,2,2,100,-100,3,-3
// qgpu: B=3,0,-1,2,1,1,1,1,-4,6,0,2,7,-7,5,0
// qgpu: C=zeros:16 tr=zeros:1 rmax=-2147483648,-2147483648,-2147483648,-2147483648
__global__ void matmul_smem4(const int* A, const int* B, int* C, int* tr, int* rmax) {
    __shared__ int sA[16], sB[16];
    int t = threadIdx.x;
    int r = t >> 2, c = t & 3;
    sA[t] = A[t];
    sB[t] = B[t];
    __syncthreads();
    int acc = 0;
    for (int k = 0; k < 4; ++k) acc += sA[r * 4 + k] * sB[k * 4 + c];
    C[t] = acc;
    if (r == c) atomicAdd(tr, acc);
    atomicMax(&rmax[r], acc);
}
