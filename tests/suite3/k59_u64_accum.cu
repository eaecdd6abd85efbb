// qgpu: --grid 1 --block 4
// qgpu: a=4294967295,3000000000,1,2147483648 lo=zeros:4 hi=zeros:4
__global__ void k59_u64_accum(const unsigned* a, unsigned* lo, unsigned* hi) {
    int t = threadIdx.x;
    unsigned long long s = 0;
    for (int i = 0; i <= t + 2; ++i) s += (unsigned long long)a[(t + i) & 3] * (i + 1);
    s -= 5;
    lo[t] = (unsigned)s;
    hi[t] = (unsigned)(s >> 32);
}
