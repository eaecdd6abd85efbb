// qgpu: --grid 1 --block 4
// qgpu: m1=zeros:4 m2=zeros:4 m3=zeros:4
__global__ void k06_activemask(unsigned* m1, unsigned* m2, unsigned* m3) {
    int t = threadIdx.x;
    if (t & 1) {
        m1[t] = __activemask();
    } else {
        m1[t] = __activemask() | 0x100u;
    }
    if (t != 2) {
        if (t == 0) m2[t] = __activemask();
        else m2[t] = __activemask() + 0x1000u;
    }
    __syncwarp();
    m3[t] = __ballot_sync(0xfu, t >= 2);
}
