// Grid-stride dot product without any unroll pragma (nvcc unrolls the loop
// by itself), n = 37 over 2 CTAs of 4 threads, partials combined with
// atomicAdd; also counts the iterations per thread.
// qgpu: --grid 2 --block 4 n=37
// qgpu: a=1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,22,23,24,25,26,27,28,29,30,31,32,33,34,35,36,37
// qgpu: b=3,-1,4,-1,5,-9,2,-6,5,3,-5,8,9,-7,9,3,2,-3,8,4,-6,2,6,4,3,-3,8,3,2,7,9,5,0,-2,8,8,4
// qgpu: out=zeros:1 cnt=zeros:8
__global__ void grid_stride_dot(const int* a, const int* b, int* out, int* cnt,
                                int n) {
    int acc = 0, k = 0;
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n;
         i += blockDim.x * gridDim.x) {
        acc += a[i] * b[i];
        k++;
    }
    atomicAdd(out, acc);
    cnt[blockIdx.x * blockDim.x + threadIdx.x] = k;
}
