// qgpu: --grid 1 --block 4
// qgpu: n=0,1,5,3 out=zeros:4 w=zeros:4
__global__ void k30_unsigned_countdown(const unsigned* n, unsigned* out, unsigned* w) {
    int t = threadIdx.x;
    unsigned acc = 0;
    for (unsigned i = n[t]; i-- > 0;) acc = acc * 7u + i;
    out[t] = acc;
    unsigned u = n[t] - 2u;
    w[t] = (u > 2u) ? u * 3u : u + 0xfffffff0u;
}
