// Barriers inside a data-dependent loop: the CTA walks n = 22 values in
// tiles of blockDim (6), stages each tile in shared memory, and thread 0
// folds the tile into a running sum and max between two barriers.
// qgpu: --grid 1 --block 6 n=22
// qgpu: in=5,3,-2,8,0,1,9,-9,4,4,7,-3,2,6,-5,10,11,-1,3,3,0,12
// qgpu: out=zeros:2 tiles=zeros:6
__global__ void tiled_sum_loop(const int* in, int* out, int* tiles, int n) {
    __shared__ int tile[6];
    __shared__ int acc[2];
    int t = threadIdx.x;
    if (t == 0) {
        acc[0] = 0;
        acc[1] = -2147483647;
    }
    int count = 0;
    for (int base = 0; base < n; base += blockDim.x) {
        int i = base + t;
        tile[t] = i < n ? in[i] : 0;
        __syncthreads();
        if (t == 0) {
            int m = min(n - base, (int)blockDim.x);
            for (int j = 0; j < m; ++j) {
                acc[0] += tile[j];
                acc[1] = max(acc[1], tile[j]);
            }
        }
        __syncthreads();
        count++;
    }
    tiles[t] = count * 10 + t;
    if (t == 0) {
        out[0] = acc[0];
        out[1] = acc[1];
    }
}
