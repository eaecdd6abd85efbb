// qgpu: --grid 1 --block 8
// qgpu: a=0,-1,1,-2147483648,0x00010000,0x0f0f0f0f,6,-6
// qgpu: br=zeros:8 pc=zeros:8 cz=zeros:8 ff=zeros:8
__global__ void k19_bitops(const unsigned* a, unsigned* br, int* pc, int* cz, int* ff) {
    int t = threadIdx.x;
    unsigned x = a[t];
    br[t] = __brev(x);
    pc[t] = __popc(x);
    cz[t] = __clz((int)x);
    ff[t] = __ffs((int)x) * 100 + __ffs((int)x);
}
