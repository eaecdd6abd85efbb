// Width-4 shuffles with mask 0xf... per group of 4: butterfly sum and max,
// inclusive scan with __shfl_up_sync, broadcast of the group's lane 2 with
// __shfl_sync, forward difference with __shfl_down_sync; group leaders add
// the group sums into a global total. 16 threads.
// qgpu: --grid 1 --block 16
// qgpu: in=1,2,3,4,-5,10,-15,20,100,200,300,400,7,-7,7,-7
// qgpu: scan=zeros:16 red=zeros:8 bc=zeros:16 diff=zeros:16 total=zeros:1
__global__ void shfl_group_ops(const int* in, int* scan, int* red, int* bc, int* diff, int* total) {
    int t = threadIdx.x;
    unsigned int m = 0xfu << (t & 28);
    int v = in[t];
    int s = v, mx = v;
    for (int off = 1; off < 4; off <<= 1) {
        s += __shfl_xor_sync(m, s, off, 4);
        mx = max(mx, __shfl_xor_sync(m, mx, off, 4));
    }
    int sc = v;
    for (int off = 1; off < 4; off <<= 1) {
        int u = __shfl_up_sync(m, sc, off, 4);
        if ((t & 3) >= off) sc += u;
    }
    int b = __shfl_sync(m, v, 2, 4);
    int nx = __shfl_down_sync(m, v, 1, 4);
    scan[t] = sc;
    bc[t] = b;
    diff[t] = nx - v;
    if ((t & 3) == 0) {
        red[2 * (t >> 2)] = s;
        red[2 * (t >> 2) + 1] = mx;
        atomicAdd(total, s);
    }
}
