// 3x4 by 4x3 integer matrix product, one thread per output element.
// 9 threads = 3 warps, the last with a single active lane (partial warp).
// Row/column come from division/remainder by the constant 3.
// qgpu: --grid 1 --block 9
// qgpu: A=1,2,3,4,-1,0,2,5,3,-3,1,0 B=1,0,2,0,1,-1,3,2,1,-2,4,0 C=zeros:9
__global__ void matmul(const int* A, const int* B, int* C) {
    int t = threadIdx.x;
    int r = t / 3;
    int c = t % 3;
    int acc = 0;
    for (int k = 0; k < 4; ++k) {
        acc += A[4 * r + k] * B[3 * k + c];
    }
    C[t] = acc;
}
