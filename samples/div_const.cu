// Signed division and remainder by compile-time constants (compiled to
// multiply-high/shift sequences): /7 %7, power-of-two /8 %8, and a negative
// divisor /-3 %-3, with negative dividends (C truncates toward zero).
// qgpu: --grid 1 --block 8
// qgpu: x=100,-100,7,-7,2147483647,-2147483648,0,-1 out=zeros:48
__global__ void div_const(const int* x, int* out) {
    int i = threadIdx.x;
    int v = x[i];
    out[6 * i + 0] = v / 7;
    out[6 * i + 1] = v % 7;
    out[6 * i + 2] = v / 8;
    out[6 * i + 3] = v % 8;
    out[6 * i + 4] = v / -3;
    out[6 * i + 5] = v % -3;
}
