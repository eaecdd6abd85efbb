// Shifts by variable amounts 0..31: arithmetic right shift of negative ints,
// logical right shift of unsigned, left shifts, and round trips.
// qgpu: --grid 1 --block 8
// qgpu: v=-1,-2147483648,-12345,12345,2147483647,-8,1,-305419896
// qgpu: k=0,31,4,7,30,1,31,16
// qgpu: sar=zeros:8 shr=zeros:8 shl=zeros:8 rt=zeros:8
__global__ void shift_var(const int* v, const int* k, int* sar,
                          unsigned int* shr, int* shl, int* rt) {
    int t = threadIdx.x;
    int x = v[t];
    int s = k[t];
    sar[t] = x >> s;
    shr[t] = (unsigned int)x >> s;
    shl[t] = (int)((unsigned int)x << s);
    unsigned int back = (unsigned int)(x >> s) << s;
    rt[t] = ((int)back == x) ? (x >> s)
                            : (int)(((unsigned int)x << (31 - s)) >> (31 - s));
}
