// Signed division/remainder by negative and positive constants (power of two
// and not) on negative inputs and INT_MIN.
// qgpu: --grid 1 --block 8 in=-17,17,-1,0,2147483647,-2147483648,100,-100
// qgpu: out=zeros:48
__global__ void div_neg_const(const int* in, int* out) {
    int t = threadIdx.x;
    int x = in[t];
    out[6 * t + 0] = x / -3;
    out[6 * t + 1] = x % -3;
    out[6 * t + 2] = x / -8;
    out[6 * t + 3] = x % 8;
    out[6 * t + 4] = x / 10;
    out[6 * t + 5] = x % -7 + x / 7;
}
