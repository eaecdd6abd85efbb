// qgpu: --grid 1 --block 8
// qgpu: m=zeros:8
__global__ void k33_activemask_conv(unsigned* m) {
    int t = threadIdx.x;
    m[t] = __activemask();
}
