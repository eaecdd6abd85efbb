// C = A B for an m x k matrix A and a k x p matrix B (row-major): each thread computes the
// output elements t, t + 4, ... (row t / p, column t % p). qgpu chat's `A @ B` on matrices.
// qgpu: --grid 1 --block 4 A=1,2,3,4,5,6 B=7,8,9,10,11,12 C=zeros:4 m=2 k=3 p=2
__global__ void matmul_any(const int* A, const int* B, int* C, int m, int k, int p) {
    for (int t = threadIdx.x; t < m * p; t += blockDim.x) {
        int r = t / p;
        int c = t % p;
        int acc = 0;
        for (int j = 0; j < k; ++j) acc += A[k * r + j] * B[p * j + c];
        C[t] = acc;
    }
}
