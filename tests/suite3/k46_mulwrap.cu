// qgpu: --grid 1 --block 8
// qgpu: a=65536,-65536,2147483647,-2147483648,46341,-3,123456,-1 b=65536,65537,2,-1,46341,715827883,654321,-2147483648
// qgpu: p=zeros:8 up=zeros:8 neg=zeros:8
__global__ void k46_mulwrap(const int* a, const int* b, int* p, unsigned* up, int* neg) {
    int t = threadIdx.x;
    int x = a[t], y = b[t];
    p[t] = (int)((unsigned)x * (unsigned)y);
    up[t] = (unsigned)x * (unsigned)y + 7u;
    neg[t] = (int)(0u - (unsigned)x) ^ (x < 0 ? -x : x);
}
