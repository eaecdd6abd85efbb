// const int* __restrict__ inputs, unsigned int indexing, reversed partner
// element, __umul24 and __mul24 in address/value arithmetic; 3 CTAs of 4.
// qgpu: --grid 3 --block 4 n=12
// qgpu: a=1,2,3,4,5,6,7,8,9,10,-8388608,8388607
// qgpu: b=5,-3,8,0,2,-9,4,4,1,7,-6,11
// qgpu: out=zeros:12
__global__ void restrict_reverse(const int* __restrict__ a,
                                 const int* __restrict__ b,
                                 int* __restrict__ out, unsigned int n) {
    unsigned int i = __umul24(blockIdx.x, blockDim.x) + threadIdx.x;
    if (i < n) {
        unsigned int j = n - 1u - i;
        out[i] = __mul24(a[i], b[j]) + (int)(i * j);
    }
}
