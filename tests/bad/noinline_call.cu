// Unsupported: a device function call that is not inlined.
__device__ __noinline__ int mix(int x, int y) {  // BAD: never inlined
    return (x * 31) ^ (y >> 2);
}

__global__ void noinline_call(const int* a, int* out) {
    int i = threadIdx.x;
    out[i] = mix(a[i], i);  // BAD: call
}
