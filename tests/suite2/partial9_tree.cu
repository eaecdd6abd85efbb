// 9 threads (warps of 4, 4, 1): shared-memory tree reduction for a
// non-power-of-two count (sum and max, half rounded up, barrier in the
// loop), __syncthreads_count of positives, and shared atomicMin.
// qgpu: --grid 1 --block 9
// qgpu: in=4,-9,16,3,-2,25,0,7,-11
// qgpu: res=zeros:4
__global__ void partial9_tree(const int* in, int* res) {
    __shared__ int s[9], m[9];
    __shared__ int smin;
    int t = threadIdx.x;
    int v = in[t];
    s[t] = v;
    m[t] = v;
    if (t == 0) smin = 2147483647;
    __syncthreads();
    atomicMin(&smin, v);
    int n = blockDim.x;
    while (n > 1) {
        int h = (n + 1) / 2;
        if (t < n - h) {
            s[t] += s[t + h];
            m[t] = max(m[t], m[t + h]);
        }
        __syncthreads();
        n = h;
    }
    int pos = __syncthreads_count(v > 0);
    if (t == 8) {
        res[0] = s[0];
        res[1] = m[0];
        res[2] = pos;
        res[3] = smin;
    }
}
