// Unsupported: a recursive device function (cannot be inlined).
__device__ int fib(int n) {
    return n < 2 ? n : fib(n - 1) + fib(n - 2);  // BAD: recursive call
}

__global__ void recursion(const int* a, int* out) {
    int i = threadIdx.x;
    out[i] = fib(a[i]);  // BAD: call
}
