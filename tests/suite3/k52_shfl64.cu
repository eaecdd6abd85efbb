// qgpu: --grid 1 --block 8
// qgpu: a=1,-2,3,-4,5,-6,7,-8 lo=zeros:8 hi=zeros:8
__global__ void k52_shfl64(const int* a, unsigned* lo, int* hi) {
    int t = threadIdx.x;
    long long v = (long long)a[t] * 3000000000LL;
    long long w = __shfl_xor_sync(0xffu, v, 1, 4) + __shfl_down_sync(0xffu, v, 2, 4);
    lo[t] = (unsigned)w;
    hi[t] = (int)(w >> 32);
}
