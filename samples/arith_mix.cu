// Basic integer arithmetic: add, sub, mul, negation and constants mixed
// in a few expressions, with negative operands. Four results per thread.
// qgpu: --grid 1 --block 4 a=5,-3,100,0 b=2,7,-8,-1 out=zeros:16
__global__ void arith_mix(const int* a, const int* b, int* out) {
    int i = threadIdx.x;
    int x = a[i];
    int y = b[i];
    out[4 * i + 0] = x + y * 3;
    out[4 * i + 1] = x - y;
    out[4 * i + 2] = -x * y + 7;
    out[4 * i + 3] = (x + 1) * (y - 2) - x;
}
