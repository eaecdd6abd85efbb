// 64-bit accumulation of 32x32 products (dot product of a row with a
// vector in long long), stored as high and low words, with a 64-bit signed
// compare against a threshold and a 64-bit right shift. 4 threads.
// qgpu: --grid 1 --block 4
// qgpu: m=2147483647,2147483647,2147483647,2147483647,-2147483648,-2147483648,1,1,65536,65536,-65536,-65536,1,2,3,4
// qgpu: x=2147483647,1000000,-3,7
// qgpu: hi=zeros:4 lo=zeros:4 big=zeros:4 sh=zeros:4
__global__ void i64_accum(const int* m, const int* x, int* hi, unsigned int* lo, int* big, int* sh) {
    int t = threadIdx.x;
    long long acc = 0;
    for (int k = 0; k < 4; ++k) acc += (long long)m[4 * t + k] * x[k];
    hi[t] = (int)(acc >> 32);
    lo[t] = (unsigned int)acc;
    big[t] = acc > 4000000000000000000LL ? 2 : (acc < -1000000000000LL ? -1 : 0);
    sh[t] = (int)(acc >> 20);
}
