// Unsigned division and remainder by compile-time constants: /10 %10
// (multiply-high sequences), /16 (a shift) and %1000, with operands >= 2^31.
// qgpu: --grid 1 --block 8
// qgpu: u=0,9,10,4294967295,2147483648,12345,99,1000000007 out=zeros:32
__global__ void div_const_unsigned(const unsigned* u, unsigned* out) {
    int i = threadIdx.x;
    unsigned w = u[i];
    out[4 * i + 0] = w / 10u;
    out[4 * i + 1] = w % 10u;
    out[4 * i + 2] = w / 16u;
    out[4 * i + 3] = w % 1000u;
}
