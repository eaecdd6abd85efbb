// qgpu: --grid 1 --block 8
// qgpu: x=0x80ff7f01,0x12345678,0x00800080,-1,0x7f7f7f7f,0x01020304,0x80808080,0
// qgpu: y=0xa1b2c3d4,0x8899aabb,0x80007f00,0,0x80808080,0x05060708,0x7f7f7f7f,-1
// qgpu: s=0x3210,0x7654,0x89ab,0xcdef,0x8888,0x0f1e,0x4c5d,0xfedc
// qgpu: r=zeros:8 rc=zeros:8
__global__ void k20_byteperm(const unsigned* x, const unsigned* y, const unsigned* s, unsigned* r, unsigned* rc) {
    int t = threadIdx.x;
    r[t] = __byte_perm(x[t], y[t], s[t]);
    rc[t] = __byte_perm(x[t], y[t], 0x9c8b) ^ __byte_perm(x[t], 0u, 0x0123);
}
