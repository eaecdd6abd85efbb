// Grid-stride loop, in-place saxpy y = alpha*x + y over 20 elements with
// 2 CTAs x 4 threads: global threads 0-3 do 3 iterations, 4-7 do 2.
// qgpu: --grid 2 --block 4 n=20 alpha=-3
// qgpu: x=0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19
// qgpu: y=5,5,5,5,-5,-5,-5,-5,100,200,300,400,0,0,0,0,1,2,3,4
__global__ void grid_stride(int n, int alpha, const int* x, int* y) {
    int stride = blockDim.x * gridDim.x;
#pragma unroll 1
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride) {
        y[i] = alpha * x[i] + y[i];
    }
}
