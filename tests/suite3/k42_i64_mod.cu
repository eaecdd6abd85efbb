// qgpu: --grid 1 --block 4
// qgpu: a=123456789,4294967295,2,99999 b=987654321,4294967295,3,100000 out=zeros:4
__global__ void k42_i64_mod(const unsigned* a, const unsigned* b, unsigned* out) {
    int t = threadIdx.x;
    unsigned long long p = (unsigned long long)a[t] * b[t];
    out[t] = (unsigned)(p % 1000000007ull);
}
