// Thread 0 alone computes the full 4x4 product C = A * B with a constant
// triple loop (no pragma) and the row sums; the other 3 threads only write
// their id into a marker array. 4 threads.
// qgpu: --grid 1 --block 4
// qgpu: A=1,2,3,4,-1,0,5,7,2,2,2,2,100,-100,3,-3
// qgpu: B=3,0,-1,2,1,1,1,1,-4,6,0,2,7,-7,5,0
// qgpu: C=zeros:16 rs=zeros:4 mark=zeros:4
__global__ void single_thread_matmul(const int* A, const int* B, int* C, int* rs, int* mark) {
    int t = threadIdx.x;
    mark[t] = t + 1;
    if (t != 0) return;
    for (int i = 0; i < 4; ++i) {
        int row = 0;
        for (int j = 0; j < 4; ++j) {
            int acc = 0;
            for (int k = 0; k < 4; ++k) acc += A[i * 4 + k] * B[k * 4 + j];
            C[i * 4 + j] = acc;
            row += acc;
        }
        rs[i] = row;
    }
}
