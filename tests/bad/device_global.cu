// Unsupported: a __device__ global variable (only kernel parameters address memory).
__device__ int counter;  // BAD: global variable

__global__ void device_global(int* out) {
    int i = threadIdx.x;
    out[i] = atomicAdd(&counter, 1);  // BAD: use of the global variable
}
