// Unsupported: printf in device code.
__global__ void printf_call(const int* a, int* out) {
    int i = threadIdx.x;
    printf("thread %d sees %d\n", i, a[i]);  // BAD: printf
    out[i] = a[i];
}
