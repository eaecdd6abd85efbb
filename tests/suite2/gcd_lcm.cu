// Euclid gcd (variable remainder in a data-dependent loop), lcm as
// a / g * b, the step count, and a binary (Stein) gcd cross-check with
// __ffs. 12 threads.
// qgpu: --grid 1 --block 12
// qgpu: a=12,18,17,0,100,1071,65536,999999,7,13,1,2147483646
// qgpu: b=18,12,5,9,75,462,4096,333333,7,0,1,3
// qgpu: g=zeros:12 l=zeros:12 steps=zeros:12 bg=zeros:12
__global__ void gcd_lcm(const int* a, const int* b, int* g, int* l, int* steps, int* bg) {
    int t = threadIdx.x;
    int x = a[t], y = b[t];
    int s = 0;
    while (y != 0) {
        int r = x % y;
        x = y;
        y = r;
        s++;
    }
    g[t] = x;
    l[t] = x ? a[t] / x * b[t] : 0;
    steps[t] = s;
    unsigned int u = a[t], v = b[t];
    if (u == 0u || v == 0u) {
        bg[t] = (int)(u | v);
        return;
    }
    int sh = __ffs(u | v) - 1;
    u >>= __ffs(u) - 1;
    do {
        v >>= __ffs(v) - 1;
        if (u > v) {
            unsigned int tmp = u;
            u = v;
            v = tmp;
        }
        v -= u;
    } while (v != 0u);
    bg[t] = (int)(u << sh);
}
