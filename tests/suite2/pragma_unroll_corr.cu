// Circular cross-correlation of two 16-element signals at lag t, and the
// circular convolution at lag t, both with explicit '#pragma unroll' over
// 16 taps (the test author asks for full unrolling). 16 threads.
// qgpu: --grid 1 --block 16
// qgpu: a=1,2,3,4,5,6,7,8,-1,-2,-3,-4,-5,-6,-7,-8
// qgpu: b=3,1,4,1,5,9,2,6,5,3,5,8,9,7,9,3
// qgpu: corr=zeros:16 conv=zeros:16
__global__ void pragma_unroll_corr(const int* a, const int* b, int* corr, int* conv) {
    int t = threadIdx.x;
    int c = 0, v = 0;
#pragma unroll
    for (int k = 0; k < 16; ++k) c += a[k] * b[(k + t) & 15];
#pragma unroll
    for (int k = 0; k < 16; ++k) v += a[k] * b[(t - k) & 15];
    corr[t] = c;
    conv[t] = v;
}
