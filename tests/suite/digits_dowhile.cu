// do/while loops with data-dependent trip counts: decimal digit count,
// digit reversal (wraps in unsigned), and digit sum, per thread.
// qgpu: --grid 1 --block 6 u=0,7,10,4294967295,1000000,123456789
// qgpu: nd=zeros:6 rev=zeros:6 ds=zeros:6
__global__ void digits_dowhile(const unsigned int* u, int* nd,
                               unsigned int* rev, int* ds) {
    int t = threadIdx.x;
    unsigned int v = u[t];
    int n = 0;
    do {
        ++n;
        v /= 10u;
    } while (v);
    nd[t] = n;
    v = u[t];
    unsigned int r = 0;
    int s = 0;
    do {
        unsigned int d = v % 10u;
        r = r * 10u + d;
        s += (int)d;
        v = v / 10u;
    } while (v != 0u);
    rev[t] = r;
    ds[t] = s;
}
