// Unsupported: floating-point arithmetic (the machine has integers only).
__global__ void float_math(const int* a, int* out) {
    int i = threadIdx.x;
    float x = (float)a[i];
    float y = x * 0.37f + 1.25f;  // BAD: float multiply-add
    out[i] = (int)y;
}
