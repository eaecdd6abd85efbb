// Grid-stride in-place y = alpha * x + y plus a clamp, no unroll pragma,
// n = 30 over 4 CTAs of 3 threads.
// qgpu: --grid 4 --block 3 n=30 alpha=-7 lim=100
// qgpu: x=0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,22,23,24,25,26,27,28,29
// qgpu: y=5,5,5,5,5,-5,-5,-5,-5,-5,100,200,300,400,500,0,0,0,0,0,1,2,3,4,5,6,7,8,9,10
__global__ void grid_stride_saxpy(int n, int alpha, int lim, const int* x,
                                  int* y) {
    int stride = gridDim.x * blockDim.x;
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride) {
        int v = alpha * x[i] + y[i];
        y[i] = v > lim ? lim : (v < -lim ? -lim : v);
    }
}
