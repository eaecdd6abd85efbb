// qgpu: --grid 1 --block 3
// qgpu: a=0,5,6 b=zeros:3 an=zeros:3 al=zeros:3 bf=zeros:3 al2=zeros:3
__global__ void k05_vote_3thr(const int* a, unsigned* b, int* an, int* al, unsigned* bf, int* al2) {
    int t = threadIdx.x;
    int v = a[t];
    b[t] = __ballot_sync(0x7u, v != 0);
    an[t] = __any_sync(0x7u, v == 6);
    al[t] = __all_sync(0x7u, v > 0);
    bf[t] = __ballot_sync(0xffffffffu, v >= 5);
    al2[t] = __all_sync(0xffffffffu, v >= 0);
}
