// qgpu: --grid 1 --block 5
// qgpu: a=3,0,7,0,9 b=zeros:5 c=zeros:5 s=zeros:5
__global__ void k07_partial_vote5(const int* a, unsigned* b, int* c, int* s) {
    int t = threadIdx.x;
    unsigned bb = __ballot_sync(0xffffffffu, a[t] != 0);
    b[t] = bb;
    c[t] = __popc(bb) * 10 + __syncthreads_count(a[t] > 2);
    s[t] = __syncthreads_or(a[t] == 9) * 2 + __syncthreads_and(a[t] >= 0);
}
