// Wrap-around arithmetic done in unsigned (no UB), results viewed both as
// int and unsigned.
// qgpu: --grid 1 --block 4
// qgpu: a=2147483647,4294967295,2147483648,123456789
// qgpu: b=1,1,2147483648,987654321
// qgpu: s=zeros:4 d=zeros:4 p=zeros:4 q=zeros:4
__global__ void wrap_unsigned(const unsigned int* a, const unsigned int* b,
                              int* s, int* d, unsigned int* p,
                              unsigned int* q) {
    unsigned int t = threadIdx.x;
    unsigned int x = a[t], y = b[t];
    s[t] = (int)(x + y);
    d[t] = (int)(y - x);
    p[t] = x * y;
    q[t] = x * x + 3u * y - t;
}
