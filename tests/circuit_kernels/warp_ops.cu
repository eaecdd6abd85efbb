// Cross-lane ops for the circuit tests: 12 threads in one CTA (three warps), so a thread's
// hardware lane 4·J + l has J = 0, 1, 2. Member masks are each warp's own lanes; shuffles use
// widths 4 and 2, every mode, and sources out of range (which keep the lane's own value); a
// vote after divergence counts only the lanes that run it.
// qgpu: --grid 1 --block 12 in=3,-8,0,17,255,-1,6,6,1000,-77,5,9 out=zeros:96
__global__ void warp_ops(const int* in, int* out) {
    int t = threadIdx.x;
    int v = in[t];
    unsigned m = 0xfu << (t & ~3);                  // this warp's lanes
    int* o = out + 8 * t;
    o[0] = __ballot_sync(m, v > 5);
    o[1] = __any_sync(m, v < 0) + 2 * __all_sync(m, v != 0);
    o[2] = __shfl_sync(m, v, (t + 3) & 3, 4);       // idx, width 4
    o[3] = __shfl_up_sync(m, v, 1, 2);              // up by 1, width 2
    o[4] = __shfl_down_sync(m, v, 3, 4);            // down by 3: most lanes out of range
    o[5] = __shfl_xor_sync(m, v, 2, 4);             // bfly
    unsigned odd = __ballot_sync(m, v & 1);
    int r = 0;
    if (v & 1) {                                    // only odd values vote
        r = __ballot_sync(odd, v > 0);
    }
    o[6] = r;
    o[7] = __uni_sync(m, v == 6);
}
