// Fibonacci F(n) mod m by fast doubling, walking the bits of n from the top
// (start found with __clz), unsigned arithmetic with m < 2^16 so products
// fit; plus the Pisano-free linear loop for small n as a cross-check.
// 8 threads.
// qgpu: --grid 1 --block 8
// qgpu: n=0,1,2,10,50,1000,123456,4294967295
// qgpu: m=1000,7,65521,100,65521,9973,10007,65535
// qgpu: fib=zeros:8 chk=zeros:8
__global__ void fib_fastdbl(const unsigned int* n, const unsigned int* m, unsigned int* fib,
                            unsigned int* chk) {
    int t = threadIdx.x;
    unsigned int N = n[t], M = m[t];
    unsigned int a = 0u, b = 1u % M;
    if (N != 0u) {
        for (int i = 31 - __clz(N); i >= 0; --i) {
            unsigned int c = a * ((2u * b + M - a) % M) % M;
            unsigned int d = (a * a + b * b) % M;
            if ((N >> i) & 1u) {
                a = d;
                b = (c + d) % M;
            } else {
                a = c;
                b = d;
            }
        }
    }
    fib[t] = a;
    unsigned int x = 0u, y = 1u % M;
    unsigned int lim = N < 60u ? N : 60u;
    for (unsigned int i = 0u; i < lim; ++i) {
        unsigned int z = (x + y) % M;
        x = y;
        y = z;
    }
    chk[t] = x;
}
