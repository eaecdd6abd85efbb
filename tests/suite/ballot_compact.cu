// Stream compaction inside 4-thread groups with __ballot_sync + __popc:
// rank = popc(ballot & lanes-below), group count = popc(ballot).
// 2 CTAs of 8 threads, member mask per group.
// qgpu: --grid 2 --block 8
// qgpu: in=5,-1,7,0,-3,-4,-5,-6,1,2,3,4,0,9,0,9
// qgpu: packed=zeros:16 cnt=zeros:4 bal=zeros:16
__global__ void ballot_compact(const int* in, int* packed, int* cnt,
                               unsigned int* bal) {
    unsigned int t = threadIdx.x;
    unsigned int lane = t % 32u;
    unsigned int m = 0xfu << (lane & ~3u);
    int gi = blockIdx.x * blockDim.x + t;
    int v = in[gi];
    unsigned int b = __ballot_sync(m, v > 0);
    int rank = __popc(b & ((1u << lane) - 1u));
    int base = gi & ~3;
    if (v > 0) packed[base + rank] = v;
    if ((lane & 3u) == 0u) cnt[gi >> 2] = __popc(b);
    bal[gi] = b;
}
