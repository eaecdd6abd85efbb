// Integer square root of unsigned values by bisection over [0, 65536)
// (fixed 16 halvings but written as a while loop), the remainder x - r*r,
// and a perfect-square flag. 16 threads.
// qgpu: --grid 1 --block 16
// qgpu: x=0,1,2,3,4,15,16,17,99,100,65535,65536,1000000,2147483647,4294836225,4294967295
// qgpu: r=zeros:16 rem=zeros:16 sq=zeros:16
__global__ void isqrt_bisect(const unsigned int* x, unsigned int* r,
                             unsigned int* rem, int* sq) {
    int t = threadIdx.x;
    unsigned int v = x[t];
    unsigned int lo = 0u, hi = 65536u;
    while (hi - lo > 1u) {
        unsigned int mid = (lo + hi) >> 1;
        if (mid * mid <= v) lo = mid;
        else hi = mid;
    }
    r[t] = lo;
    rem[t] = v - lo * lo;
    sq[t] = (lo * lo == v) ? 1 : 0;
}
