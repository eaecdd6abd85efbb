// 4x4 transpose through a padded shared tile (4x5), plus a 90-degree
// rotation and a transpose-add, one thread per element. 16 threads.
// qgpu: --grid 1 --block 16
// qgpu: in=1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16
// qgpu: tr=zeros:16 rot=zeros:16 sym=zeros:16
__global__ void transpose_rot_smem(const int* in, int* tr, int* rot, int* sym) {
    __shared__ int tile[4][5];
    int t = threadIdx.x;
    int r = t / 4, c = t % 4;
    tile[r][c] = in[t];
    __syncthreads();
    tr[t] = tile[c][r];
    rot[t] = tile[3 - c][r];
    sym[t] = tile[r][c] + tile[c][r] - (r == c ? tile[r][c] : 0);
}
