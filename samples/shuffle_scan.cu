// Warp shuffles over a 4-lane warp: an inclusive prefix sum with
// __shfl_up_sync (guarded by lane >= delta), an unguarded shift-up where
// lane 0 keeps its own value, and __shfl_sync index shuffles: broadcast of
// lane 2, rotate by one lane, and reverse via __shfl_xor_sync with 3.
// out[5*t .. 5*t+4] = scan, up-by-1, broadcast, rotate, reverse.
// qgpu: --grid 1 --block 4 in=5,-2,9,4 out=zeros:20
__global__ void shuffle_scan(const int* in, int* out) {
    int t = threadIdx.x;
    int v = in[t];
    int x = v;
    for (int d = 1; d < 4; d <<= 1) {
        int y = __shfl_up_sync(0xf, x, d, 4);
        if (t >= d) x += y;
    }
    out[5 * t + 0] = x;
    out[5 * t + 1] = __shfl_up_sync(0xf, v, 1, 4);
    out[5 * t + 2] = __shfl_sync(0xf, v, 2, 4);
    out[5 * t + 3] = __shfl_sync(0xf, v, (t + 1) & 3, 4);
    out[5 * t + 4] = __shfl_xor_sync(0xf, v, 3, 4);
}
