// qgpu: --grid 1 --block 8
// qgpu: a=-2147483648,2147483647,-1,-7,7,-1000000,999999999,-13
// qgpu: d2=zeros:8 d8=zeros:8 d7=zeros:8 d1000=zeros:8 dm4=zeros:8 dm7=zeros:8 r16=zeros:8 r1000=zeros:8
__global__ void k35_const_sdiv(const int* a, int* d2, int* d8, int* d7, int* d1000, int* dm4, int* dm7, int* r16, int* r1000) {
    int t = threadIdx.x;
    int x = a[t];
    d2[t] = x / 2; d8[t] = x / 8; d7[t] = x / 7; d1000[t] = x / 1000;
    dm4[t] = x / -4; dm7[t] = x / -7; r16[t] = x % 16; r1000[t] = x % 1000;
}
