// qgpu: --grid 1 --block 8
// qgpu: a=4294967295,2147483648,2147483647,0,6,1000000007,3000000000,4294967294
// qgpu: d3=zeros:8 d7=zeros:8 d10=zeros:8 d641=zeros:8 dbig=zeros:8 r7=zeros:8 r1000=zeros:8 d60000=zeros:8
__global__ void k36_const_udiv(const unsigned* a, unsigned* d3, unsigned* d7, unsigned* d10, unsigned* d641, unsigned* dbig, unsigned* r7, unsigned* r1000, unsigned* d60000) {
    int t = threadIdx.x;
    unsigned x = a[t];
    d3[t] = x / 3u; d7[t] = x / 7u; d10[t] = x / 10u; d641[t] = x / 641u;
    dbig[t] = x / 0x80000001u + x / 0xfffffffeu; r7[t] = x % 7u; r1000[t] = x % 1000u; d60000[t] = x / 60000u;
}
