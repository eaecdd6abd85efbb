// Butterfly all-reductions with __shfl_xor_sync(mask, v, off, 4) in the four
// 4-thread groups of a 16-thread CTA; each group uses its own member mask.
// out[4*t ..] = sum, max, min, xor of the thread's group.
// qgpu: --grid 1 --block 16
// qgpu: in=1,2,3,4,-5,10,-15,20,2147483000,1,0,-2147483648,-8,-8,-8,7
// qgpu: out=zeros:64
__device__ __forceinline__ unsigned int group_mask() {
    return 0xfu << (threadIdx.x & 28u);
}

__global__ void shfl_xor_groups(const int* in, int* out) {
    int t = threadIdx.x;
    unsigned int m = group_mask();
    int v = in[t];
    int s = v, mx = v, mn = v, x = v;
    for (int off = 1; off < 4; off <<= 1) {
        s += __shfl_xor_sync(m, s, off, 4);
        mx = max(mx, __shfl_xor_sync(m, mx, off, 4));
        mn = min(mn, __shfl_xor_sync(m, mn, off, 4));
        x ^= __shfl_xor_sync(m, x, off, 4);
    }
    out[4 * t + 0] = s;
    out[4 * t + 1] = mx;
    out[4 * t + 2] = mn;
    out[4 * t + 3] = x;
}
