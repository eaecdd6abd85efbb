// Grid-stride loop over 48 unsigned words with 2 CTAs of 7 threads
// (14 threads: 3 or 4 iterations each): rotate each word left by a
// per-element amount 1..31 and xor with its index.
// qgpu: --grid 2 --block 7 n=48
// qgpu: x=1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,4294967295,2147483648,305419896,2596069104,17,18,19,20,21,22,23,24,25,26,27,28,29,30,31,32,33,34,35,36,37,38,39,40,41,42,43,44
__global__ void grid_stride_rot(unsigned int* x, int n) {
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n;
         i += blockDim.x * gridDim.x) {
        unsigned int k = (unsigned int)(i % 31) + 1u;
        unsigned int v = x[i];
        x[i] = ((v << k) | (v >> (32u - k))) ^ (unsigned int)i;
    }
}
