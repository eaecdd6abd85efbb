// qgpu: --grid 1 --block 8
// qgpu: a=0x12345678,0x80ff7f01,-1,0,0x00800080,0x7fff8000,-129,0xfedcba98
// qgpu: o1=zeros:8 o2=zeros:8 o3=zeros:8
__global__ void k48_byte_loads(const int* a, int* o1, int* o2, int* o3) {
    int t = threadIdx.x;
    o1[t] = (a[t] & 255) + ((a[t] >> 8) & 255) * 1000;
    o2[t] = (signed char)a[t] + (short)a[t] * 1000;
    o3[t] = (unsigned short)(a[t] >> 16) - (signed char)(a[t] >> 24);
}
