// __popc, __clz, __ffs, __brev including the zero and all-ones cases, plus
// floor(log2) and next power of two built from __clz.
// qgpu: --grid 1 --block 8
// qgpu: in=0,1,2,3,4294967295,2147483648,305419896,65536
// qgpu: out=zeros:56
__global__ void bitcount_intrin(const unsigned int* in, int* out) {
    int t = threadIdx.x;
    unsigned int x = in[t];
    int* o = out + 7 * t;
    o[0] = __popc(x);
    o[1] = __clz((int)x);
    o[2] = __ffs((int)x);
    o[3] = (int)__brev(x);
    o[4] = x ? 31 - __clz((int)x) : -1;
    o[5] = (x > 1u && x <= 0x80000000u) ? (int)(1u << (32 - __clz((int)(x - 1u)))) : (int)x;
    o[6] = __popc(x ^ __brev(x)) + __ffs((int)__brev(x));
}
