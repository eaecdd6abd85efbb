// Integer square root by binary search in a while loop with an early break
// on an exact hit (data-dependent trip counts; unsigned compares).
// qgpu: --grid 1 --block 8
// qgpu: in=0,1,15,16,1000000,4294967295,2147483648,99980001
// qgpu: root=zeros:8 iters=zeros:8
__global__ void isqrt_while(const unsigned int* in, unsigned int* root,
                            int* iters) {
    int t = threadIdx.x;
    unsigned int x = in[t];
    unsigned int lo = 0u, hi = 65536u;
    int it = 0;
    while (hi - lo > 1u) {
        unsigned int mid = (lo + hi) >> 1;
        ++it;
        unsigned int sq = mid * mid;
        if (sq == x) {
            lo = mid;
            break;
        }
        if (sq < x) lo = mid;
        else hi = mid;
    }
    root[t] = lo;
    iters[t] = it;
}
