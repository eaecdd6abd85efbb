// __syncthreads_count / _or / _and inside a loop: barrier-wide votes, two CTAs, one thread exits early.
// qgpu: --grid 2 --block 6 a=5,12,7,3,9,1,4,8,15,2,6,10 out=zeros:12
__global__ void syncthreads_count(const int* a, int* out) {
    int t = threadIdx.x;
    int i = blockIdx.x * blockDim.x + t;
    if (t == 5) return;                       // exited threads do not take part
    int v = a[i];
    int acc = 0;
    #pragma unroll 1
    for (int limit = 4; limit <= 12; limit += 4) {
        int c = __syncthreads_count(v > limit);
        int any = __syncthreads_or(v == limit);
        int all = __syncthreads_and(v > limit - 8);
        acc = acc * 100 + c * 10 + any * 2 + all;
    }
    out[i] = acc;
}
