// 32-bit wrap-around: signed add/sub at INT_MAX/INT_MIN, products that
// overflow (65536*65536 == 0, 46341^2 goes negative), negating INT_MIN via
// unsigned, and unsigned wrap (0xFFFFFFFF + 1 == 0). 6 threads = partial warp.
// out[4*i .. 4*i+3] = a+b, a-b, a*b, -a.
// qgpu: --grid 1 --block 6
// qgpu: a=2147483647,-2147483648,65536,46341,-46341,123456789
// qgpu: b=1,1,65536,46341,46341,987654321 out=zeros:24
// qgpu: u=4294967295,2147483648,65536,3,4294967294,1 uout=zeros:6
__global__ void overflow_wrap(const int* a, const int* b, int* out,
                              const unsigned* u, unsigned* uout) {
    int i = threadIdx.x;
    int x = a[i];
    int y = b[i];
    out[4 * i + 0] = x + y;
    out[4 * i + 1] = x - y;
    out[4 * i + 2] = x * y;
    out[4 * i + 3] = (int)(0u - (unsigned)x);
    unsigned v = u[i];
    uout[i] = v * v + v + 1u;
}
