// qgpu: --grid 1 --block 8
// qgpu: a=3,10,1,7,2,2,9,0 out=zeros:8 bl=zeros:8
__global__ void k44_vote_after_loop(const int* a, int* out, unsigned* bl) {
    int t = threadIdx.x;
    int x = a[t], n = 0;
    while (x > 0) { x -= 3; n++; if (n == 2 && t == 5) break; }
    unsigned m = 0xfu << (t & 4);
    unsigned b = __ballot_sync(m, x < 0);
    out[t] = n + 10 * __popc(b);
    bl[t] = b;
}
