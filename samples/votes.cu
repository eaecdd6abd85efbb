// Warp votes over a 4-lane warp: __any_sync, __all_sync and __ballot_sync
// on several predicates (mixed, all-true, all-false, parity).
// qgpu: --grid 1 --block 4 in=5,12,-3,20 th=10 res=zeros:20 bal=zeros:4
__global__ void votes(const int* in, int th, int* res, unsigned* bal) {
    int t = threadIdx.x;
    int v = in[t];
    res[5 * t + 0] = __any_sync(0xf, v > th) != 0;
    res[5 * t + 1] = __all_sync(0xf, v > th) != 0;
    res[5 * t + 2] = (int)__ballot_sync(0xf, v > th);
    res[5 * t + 3] = __all_sync(0xf, v != 0) != 0;
    res[5 * t + 4] = __any_sync(0xf, v < -100) != 0;
    bal[t] = __ballot_sync(0xf, v & 1);
}
