// qgpu: --grid 1 --block 8
// qgpu: a=300,-300,32767,-32768,1000,-1,255,12345 b=200,7,2,-1,-1000,-32768,-255,3
// qgpu: o1=zeros:8 o2=zeros:8 o3=zeros:8 o4=zeros:8
__global__ void k47_short_arith(const int* a, const int* b, int* o1, int* o2, int* o3, int* o4) {
    int t = threadIdx.x;
    short x = (short)a[t], y = (short)b[t];
    short m = (short)(x * y);
    short d = (short)(x / y);
    short sh = (short)(x >> 3);
    unsigned short ux = (unsigned short)x;
    o1[t] = m;
    o2[t] = d + (short)(x % y) * 100000;
    o3[t] = sh + (ux >> 3) * 100000;
    o4[t] = (x < y) + (ux < (unsigned short)y) * 2 + max(x, y) * 4;
}
