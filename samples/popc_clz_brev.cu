// Bit-counting intrinsics: __popc (population count), __clz (count leading
// zeros, 32 for 0) and __brev (bit reversal) on edge-case words.
// qgpu: --grid 1 --block 8
// qgpu: x=0,1,4294967295,2147483648,305419896,15790080,7,1073741824
// qgpu: pop=zeros:8 lz=zeros:8 rev=zeros:8
__global__ void popc_clz_brev(const unsigned* x, int* pop, int* lz,
                              unsigned* rev) {
    int i = threadIdx.x;
    unsigned v = x[i];
    pop[i] = __popc(v);
    lz[i] = __clz((int)v);
    rev[i] = __brev(v);
}
