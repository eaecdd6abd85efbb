// A VALID kernel with no '// qgpu:' header, used by tests/test_errors.py as the
// target of malformed command lines (missing/unknown/duplicate arguments, bad
// values, bad launch sizes). Parameters: two arrays and two scalars.
__global__ void args_target(const int* a, int* out, int n, unsigned k) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = a[i] * (int)k;
}
