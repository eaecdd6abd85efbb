// Fixed-point scaling through a 64-bit intermediate: (a * b) / 1000 and
// (a * b) % 1000 in long long, and an unsigned 64-bit / 10 of the
// unsigned product. 4 threads.
// qgpu: --grid 1 --block 4
// qgpu: a=123456789,-123456789,2147483647,5
// qgpu: b=1000,987654,2147483647,-7
// qgpu: q=zeros:4 r=zeros:4 uq=zeros:4
__global__ void i64_div_const(const int* a, const int* b, int* q, int* r, unsigned int* uq) {
    int t = threadIdx.x;
    long long p = (long long)a[t] * b[t];
    q[t] = (int)(p / 1000);
    r[t] = (int)(p % 1000);
    unsigned long long up = (unsigned long long)(unsigned int)a[t] * (unsigned int)b[t];
    uq[t] = (unsigned int)(up / 10u);
}
