// Unsupported: a kernel parameter of type float.
__global__ void float_param(const float* a, int* out) {  // BAD: float parameter
    int i = threadIdx.x;
    out[i] = (int)a[i];
}
