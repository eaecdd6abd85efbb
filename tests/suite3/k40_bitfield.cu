// qgpu: --grid 1 --block 8
// qgpu: a=0x12345678,-1,0x80000000,0x0ff0f00f,-123456,7,0xdeadbeef,0x55555555
// qgpu: p=0,4,31,8,3,1,16,30 w=8,12,1,20,29,1,16,2
// qgpu: ue=zeros:8 se=zeros:8 ins=zeros:8
__global__ void k40_bitfield(const unsigned* a, const int* p, const int* w, unsigned* ue, int* se, unsigned* ins) {
    int t = threadIdx.x;
    unsigned x = a[t]; int pp = p[t], ww = w[t];
    unsigned mask = (ww == 32) ? 0xffffffffu : ((1u << ww) - 1u);
    ue[t] = (x >> pp) & mask;
    se[t] = ((int)(x << (32 - pp - ww))) >> (32 - ww);
    ins[t] = (x & ~(mask << pp)) | ((0xabcdu & mask) << pp);
}
