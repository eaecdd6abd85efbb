// 9 threads (warps of 4, 4, 1): shared reverse with a barrier, an atomic
// thread count in shared memory, and neighbour sums via (t + k) % blockDim.
// qgpu: --grid 1 --block 9
// qgpu: in=2,3,5,7,11,13,17,19,23 rev=zeros:9 nb=zeros:9 cnt=zeros:1
__global__ void partial9_shared(const int* in, int* rev, int* nb, int* cnt) {
    __shared__ int s[9];
    __shared__ int c;
    int t = threadIdx.x;
    int n = blockDim.x;
    if (t == 0) c = 0;
    s[t] = in[t];
    __syncthreads();
    atomicAdd(&c, t + 1);
    rev[t] = s[n - 1 - t];
    nb[t] = s[(t + 2) % n] - s[(t + n - 3) % n];
    __syncthreads();
    if (t == n - 1) cnt[0] = c;
}
