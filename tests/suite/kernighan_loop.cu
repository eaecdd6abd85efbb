// Bit counting loops: Kernighan's x &= x - 1 (trip count = popcount),
// highest set bit by shifting, and a check against __popc.
// qgpu: --grid 1 --block 5 in=0,1,4294967295,2147483648,3735928559
// qgpu: cnt=zeros:5 top=zeros:5 ok=zeros:5
__global__ void kernighan_loop(const unsigned int* in, int* cnt, int* top,
                               int* ok) {
    int t = threadIdx.x;
    unsigned int x = in[t];
    int c = 0;
    unsigned int y = x;
    while (y) {
        y &= y - 1u;
        c++;
    }
    int h = -1;
    for (unsigned int z = x; z != 0u; z >>= 1) h++;
    cnt[t] = c;
    top[t] = h;
    ok[t] = (c == __popc(x)) && (h == (x ? 31 - __clz(x) : -1));
}
