// Element-wise vector addition across two CTAs with a bounds check:
// the last thread (i == n) is masked off, so out[7] stays 0.
// qgpu: --grid 2 --block 4 a=1,2,3,4,5,6,7,8 b=10,20,30,40,-50,-60,-70,-80
// qgpu: out=zeros:8 n=7
__global__ void vector_add(const int* a, const int* b, int* out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        out[i] = a[i] + b[i];
    }
}
