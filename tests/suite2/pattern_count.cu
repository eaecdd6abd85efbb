// Pattern matching: thread t checks whether the 3-word pattern occurs at
// text position t (inner loop with break on mismatch); a full-mask
// __ballot_sync collects the hits and thread 0 writes count, first and last
// position. 16 threads.
// qgpu: --grid 1 --block 16
// qgpu: text=1,2,3,1,2,3,3,1,2,1,2,3,0,1,2,3,9,9
// qgpu: pat=1,2,3 hit=zeros:16 info=zeros:3
__global__ void pattern_count(const int* text, const int* pat, int* hit, int* info) {
    int t = threadIdx.x;
    int ok = 1;
    for (int k = 0; k < 3; ++k) {
        if (text[t + k] != pat[k]) {
            ok = 0;
            break;
        }
    }
    hit[t] = ok;
    unsigned int b = __ballot_sync(0xffffffffu, ok);
    if (t == 0) {
        info[0] = __popc(b);
        info[1] = b ? __ffs(b) - 1 : -1;
        info[2] = b ? 31 - __clz(b) : -1;
    }
}
