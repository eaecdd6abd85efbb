// Warp shuffles over a 4-lane warp: a __shfl_down_sync reduction whose
// upper lanes read out-of-range sources (they get their own value back),
// a __shfl_xor_sync butterfly sum that leaves the total in every lane,
// and a butterfly max.
// out[3*t .. 3*t+2] = down-reduction value, butterfly sum, butterfly max.
// qgpu: --grid 1 --block 4 in=3,-10,7,25 out=zeros:12
__global__ void shuffle_reduce(const int* in, int* out) {
    int t = threadIdx.x;
    int v = in[t];
    int d = v;
    d += __shfl_down_sync(0xf, d, 2, 4);
    d += __shfl_down_sync(0xf, d, 1, 4);
    out[3 * t + 0] = d;
    int s = v;
    s += __shfl_xor_sync(0xf, s, 1, 4);
    s += __shfl_xor_sync(0xf, s, 2, 4);
    out[3 * t + 1] = s;
    int m = v;
    m = max(m, __shfl_xor_sync(0xf, m, 2, 4));
    m = max(m, __shfl_xor_sync(0xf, m, 1, 4));
    out[3 * t + 2] = m;
}
