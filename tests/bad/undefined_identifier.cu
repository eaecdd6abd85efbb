// Bad input: uses an identifier that was never declared.
__global__ void undefined_identifier(const int* a, int* out) {
    int i = threadIdx.x;
    out[i] = a[i] + scale_factor;  // BAD: 'scale_factor' is not declared
}
