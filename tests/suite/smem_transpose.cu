// 4x4 tile in a 2-D __shared__ array: write row-major, barrier, read the
// transpose; 16 threads with row = t / 4, col = t % 4.
// qgpu: --grid 1 --block 16
// qgpu: in=1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16 out=zeros:16
__global__ void smem_transpose(const int* in, int* out) {
    __shared__ int tile[4][4];
    int t = threadIdx.x;
    int r = t / 4, c = t % 4;
    tile[r][c] = in[t] * in[t];
    __syncthreads();
    out[t] = tile[c][r] - tile[r][c] + (r == c ? 1000 : 0);
}
