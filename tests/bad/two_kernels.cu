// Bad input for 'run' and 'compile' without --kernel: two kernels in one file.
__global__ void first_kernel(int* out) {
    out[threadIdx.x] = 1;
}

__global__ void second_kernel(int* out) {
    out[threadIdx.x] = 2;
}
