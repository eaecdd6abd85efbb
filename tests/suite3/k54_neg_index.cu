// qgpu: --grid 1 --block 4
// qgpu: a=10,20,30,40,50,60,70,80 out=zeros:4
__global__ void k54_neg_index(const int* a, int* out) {
    int t = threadIdx.x;
    const int* q = a + 4;
    int off = -1 - t;
    out[t] = q[off] * 2 + q[t - 4] + *(q + (t & 1) - 2);
}
