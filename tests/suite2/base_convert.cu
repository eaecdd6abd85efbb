// Base conversion with a variable base (2..16): digit count, digit sum, the
// first 8 digits packed into hex nibbles (least significant first) and the
// largest digit. 12 threads, unsigned values.
// qgpu: --grid 1 --block 12
// qgpu: v=0,1,255,255,255,1000,4294967295,4294967295,123456789,7,64,3000000000
// qgpu: base=10,2,2,16,7,3,16,10,10,8,4,13
// qgpu: nd=zeros:12 dsum=zeros:12 packed=zeros:12 dmax=zeros:12
__global__ void base_convert(const unsigned int* v, const int* base, int* nd, int* dsum,
                             unsigned int* packed, int* dmax) {
    int t = threadIdx.x;
    unsigned int x = v[t];
    unsigned int b = (unsigned int)base[t];
    int n = 0, s = 0, m = 0;
    unsigned int p = 0u;
    do {
        unsigned int d = x % b;
        x /= b;
        if (n < 8) p |= d << (4 * n);
        s += (int)d;
        m = max(m, (int)d);
        n++;
    } while (x != 0u);
    nd[t] = n;
    dsum[t] = s;
    packed[t] = p;
    dmax[t] = m;
}
