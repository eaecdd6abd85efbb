// qgpu: --grid 2 --block 8
// qgpu: a=5,-3,8,0,9,-20,4,4,7,0,-1,13,2,6,-8,3 out=zeros:16 cnt=zeros:1
__global__ void k38_compact(const int* a, int* out, int* cnt) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int v = a[i];
    if (v > 0) {
        int pos = atomicAdd(cnt, 1);
        out[pos] = v * 100 + i;
    }
}
