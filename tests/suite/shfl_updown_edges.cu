// __shfl_up_sync / __shfl_down_sync with deltas 0..3 and 5 at the edges of
// width-4 segments (out-of-segment sources return the caller's own value);
// 2 CTAs of 4 threads with mask 0xf.
// qgpu: --grid 2 --block 4 v=1,2,4,8,16,32,64,128 out=zeros:48
__global__ void shfl_updown_edges(const int* v, int* out) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int x = v[i];
    int* o = out + 6 * i;
    o[0] = __shfl_up_sync(0xf, x, 1, 4);
    o[1] = __shfl_up_sync(0xf, x, 3, 4);
    o[2] = __shfl_down_sync(0xf, x, 2, 4);
    o[3] = __shfl_down_sync(0xf, x, 0, 4);
    o[4] = __shfl_down_sync(0xf, x, 5, 4) + __shfl_up_sync(0xf, x, 5, 4);
    o[5] = __shfl_down_sync(0xf, x, 1, 2) * 1000 + __shfl_up_sync(0xf, x, 1, 2);
}
