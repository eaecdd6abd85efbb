// qgpu: --grid 1 --block 8
// qgpu: src=-1,5,7,3,100,-6,2,-4 out=zeros:8 out2=zeros:8
__global__ void k02_shfl_idx(const int* src, int* out, int* out2) {
    int t = threadIdx.x;
    int v = t * 7 + 3;
    out[t] = __shfl_sync(0xffu, v, src[t], 4);
    out2[t] = __shfl_sync(0xffu, v, src[t], 2);
}
