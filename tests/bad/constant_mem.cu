// Unsupported: __constant__ memory.
__constant__ int table[4] = {10, 20, 30, 40};  // BAD: constant memory

__global__ void constant_mem(const int* a, int* out) {
    int i = threadIdx.x;
    out[i] = table[a[i] & 3];  // BAD: read from constant memory
}
