// qgpu: --grid 1 --block 4
// qgpu: a=5,3,5,9 r=zeros:4 m=zeros:4
__global__ void k61_redux_match(const int* a, int* r, unsigned* m) {
    int t = threadIdx.x;
    r[t] = 0;
    m[t] = __match_any_sync(0xfu, a[t]);
}
