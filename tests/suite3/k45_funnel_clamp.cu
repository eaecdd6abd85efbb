// qgpu: --grid 1 --block 8
// qgpu: lo=0x89abcdef,1,0xffffffff,0,0x80000000,0x12345678,7,0xdeadbeef
// qgpu: hi=0x01234567,0x80000000,0,0xffffffff,1,0x9abcdef0,9,0xcafebabe
// qgpu: s=0,31,32,33,64,100,16,4294967295
// qgpu: lc=zeros:8 rc=zeros:8 lw=zeros:8 rw=zeros:8
__global__ void k45_funnel_clamp(const unsigned* lo, const unsigned* hi, const unsigned* s, unsigned* lc, unsigned* rc, unsigned* lw, unsigned* rw) {
    int t = threadIdx.x;
    lc[t] = __funnelshift_lc(lo[t], hi[t], s[t]);
    rc[t] = __funnelshift_rc(lo[t], hi[t], s[t]);
    lw[t] = __funnelshift_l(lo[t], hi[t], s[t]);
    rw[t] = __funnelshift_r(lo[t], hi[t], s[t]);
}
