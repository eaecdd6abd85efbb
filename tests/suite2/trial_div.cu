// Trial division per thread: largest prime factor, number of prime factors
// with multiplicity, and a primality flag; the divisor loop has a variable
// bound (d <= x / d) and a nested while dividing out repeated factors.
// 16 threads.
// qgpu: --grid 1 --block 16
// qgpu: x=2,3,4,12,97,100,1024,1001,65537,999983,360360,131071,1,30030,49,121
// qgpu: lpf=zeros:16 nf=zeros:16 prime=zeros:16
__global__ void trial_div(const int* x, int* lpf, int* nf, int* prime) {
    int t = threadIdx.x;
    int v = x[t];
    int n = 0, big = 1;
    for (int d = 2; d <= v / d; d += (d == 2 ? 1 : 2)) {
        while (v % d == 0) {
            v /= d;
            n++;
            big = d;
        }
    }
    if (v > 1) {
        n++;
        big = v;
    }
    lpf[t] = big;
    nf[t] = n;
    prime[t] = (n == 1);
}
