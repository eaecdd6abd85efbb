// qgpu: --grid 1 --block 4
// qgpu: a=120,-128,0,250 out=zeros:4 us=zeros:4
__global__ void k39_char_wrap(const int* a, int* out, int* us) {
    int t = threadIdx.x;
    signed char c = (signed char)a[t];
    int acc = 0;
    for (int i = 0; i < 12; ++i) { c += 3; acc += c; }
    out[t] = acc;
    unsigned short h = (unsigned short)(a[t] * 300);
    for (int i = 0; i < 5; ++i) h = h * 7 + 40000;
    us[t] = h;
}
