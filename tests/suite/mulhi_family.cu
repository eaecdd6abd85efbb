// High halves of products: __mulhi, __umulhi, 64-bit products shifted by 32,
// and __mul24 on values that are valid signed 24-bit numbers (or have bit 23
// clear), so the ignored high byte does not matter for the sign.
// qgpu: --grid 1 --block 4
// qgpu: a=2147483647,-2147483648,123456789,-77777
// qgpu: b=2147483647,3,-987654321,-99999
// qgpu: c=2130706437,-1000,8388607,-8388608 d=7,-3000,2,5
// qgpu: hi=zeros:4 uhi=zeros:4 m24=zeros:4 wide=zeros:4
__global__ void mulhi_family(const int* a, const int* b, const int* c,
                             const int* d, int* hi, unsigned int* uhi,
                             int* m24, int* wide) {
    int t = threadIdx.x;
    int x = a[t], y = b[t];
    hi[t] = __mulhi(x, y);
    uhi[t] = __umulhi((unsigned int)x, (unsigned int)y);
    m24[t] = __mul24(c[t], d[t]);
    long long p = (long long)x * (long long)y;
    wide[t] = (int)(p >> 32) ^ (int)p;
}
