// Full-mask __ballot_sync inside a loop over bit positions (every thread
// reaches every ballot), plus group-of-4 __any_sync/__all_sync with mask
// 0xf<<group; thread 0 stores the ballots. 16 threads.
// qgpu: --grid 1 --block 16
// qgpu: in=1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,0
// qgpu: masks=zeros:4 pc=zeros:16 anyall=zeros:16
__global__ void ballot_loop(const int* in, unsigned int* masks, int* pc, int* anyall) {
    int t = threadIdx.x;
    int v = in[t];
    int acc = 0;
    for (int bit = 0; bit < 4; ++bit) {
        unsigned int b = __ballot_sync(0xffffffffu, (v >> bit) & 1);
        if (t == 0) masks[bit] = b;
        acc += __popc(b) * (bit + 1);
    }
    pc[t] = acc;
    unsigned int gm = 0xfu << (t & 28);
    int any = __any_sync(gm, v > 12);
    int all = __all_sync(gm, v & 1);
    anyall[t] = any * 2 + all;
}
