// qgpu: --grid 1 --block 8
// qgpu: a=0x1ff,0x80,0x7f,-1,0x12348001,0xffff7fff,0x100,-129
// qgpu: sc=zeros:8 uc=zeros:8 ss=zeros:8 us=zeros:8 ar=zeros:8
__global__ void k23_casts(const int* a, int* sc, int* uc, int* ss, int* us, int* ar) {
    int t = threadIdx.x;
    int x = a[t];
    signed char c = (signed char)x;
    unsigned char d = (unsigned char)x;
    short h = (short)x;
    unsigned short g = (unsigned short)x;
    sc[t] = c; uc[t] = d; ss[t] = h; us[t] = g;
    signed char c2 = (signed char)(c + 100);
    ar[t] = c2 * 3 + (short)(h * 2) + (unsigned char)(d << 1);
}
