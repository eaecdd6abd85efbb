// C = A * B for n x n matrices with a runtime n (3) and one thread per
// output element (9 threads: warps of 4, 4, 1); inner loop over k has a
// runtime trip count and no pragma.
// qgpu: --grid 1 --block 9 n=3
// qgpu: A=1,2,3,-4,5,-6,7,8,9 B=9,8,7,6,5,4,3,2,-1 C=zeros:9
__global__ void matmul_rt(const int* A, const int* B, int* C, int n) {
    int t = threadIdx.x;
    int row = t / n, col = t % n;
    if (row < n) {
        int acc = 0;
        for (int k = 0; k < n; ++k) acc += A[row * n + k] * B[k * n + col];
        C[row * n + col] = acc;
    }
}
