// 13 threads (warps of 4, 4, 4, 1): order-preserving stream compaction of
// the positive values with a full-mask __ballot_sync and popc of the lanes
// below; the count and the ballot are written by thread 12.
// qgpu: --grid 1 --block 13
// qgpu: in=5,-1,7,0,-3,4,-5,6,1,2,-3,4,9
// qgpu: packed=zeros:13 info=zeros:2
__global__ void partial13_compact(const int* in, int* packed, unsigned int* info) {
    int t = threadIdx.x;
    int v = in[t];
    unsigned int b = __ballot_sync(0xffffffffu, v > 0);
    int rank = __popc(b & ((1u << t) - 1u));
    if (v > 0) packed[rank] = v * 10 + t;
    int n = __popc(b);
    if (t == 12) {
        info[0] = (unsigned int)n;
        info[1] = b;
    }
}
