// Overflow detection without UB: signed add via unsigned with the sign rule,
// saturating result; signed multiply overflow via __mulhi vs the low word.
// qgpu: --grid 1 --block 6
// qgpu: a=2147483647,-2147483648,100,-5,65536,-46341
// qgpu: b=1,-1,-200,2147483647,65536,46341
// qgpu: sat=zeros:6 mflag=zeros:6
#define MY_INT_MAX 0x7fffffff
#define MY_INT_MIN ((int)0x80000000u)

__global__ void overflow_detect(const int* a, const int* b, int* sat,
                                int* mflag) {
    int t = threadIdx.x;
    int x = a[t], y = b[t];
    int s = (int)((unsigned int)x + (unsigned int)y);
    bool ovf = ((x ^ s) & (y ^ s)) < 0;
    sat[t] = ovf ? (x < 0 ? MY_INT_MIN : MY_INT_MAX) : s;
    int lo = (int)((unsigned int)x * (unsigned int)y);
    int hi = __mulhi(x, y);
    mflag[t] = (hi != (lo >> 31)) ? 1 : 0;
}
