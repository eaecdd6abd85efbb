// Votes with group masks over a 12-thread CTA: __any_sync/__all_sync on the
// whole group, and a __ballot_sync inside a branch taken only by the odd
// lanes (member mask = odd lanes of the group).
// qgpu: --grid 1 --block 12
// qgpu: in=1,2,3,4,-1,-2,-3,-4,0,5,0,7 out=zeros:36
__global__ void vote_divergent(const int* in, int* out) {
    int t = threadIdx.x;
    unsigned int gm = 0xfu << (t & ~3);
    int v = in[t];
    int any_neg = __any_sync(gm, v < 0);
    int all_pos = __all_sync(gm, v > 0);
    int odd_b = -1;
    if (t & 1) {
        unsigned int om = gm & 0xaaaaaaaau;
        odd_b = (int)__ballot_sync(om, v != 0);
    }
    out[3 * t + 0] = any_neg ? 1 : 0;
    out[3 * t + 1] = all_pos + 2 * __all_sync(gm, v != 0);
    out[3 * t + 2] = odd_b;
}
