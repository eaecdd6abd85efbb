// qgpu: --grid 4 --block 3
// qgpu: a=1,2,3,4,5,6,7,8,9,10,11,12 out=zeros:12 tot=zeros:4
__global__ void k24_multicta(const int* a, int* out, int* tot) {
    __shared__ int s;
    int b = blockIdx.x, t = threadIdx.x;
    int i = b * blockDim.x + t;
    if (t == 0) s = 0;
    __syncthreads();
    int v = a[i];
    if (b & 1) {
        for (int k = 0; k < b; ++k) v = v * 2 + k;
    } else if (b == 2) {
        v = -v;
    } else {
        while (v > 1) v >>= 1;
    }
    atomicAdd(&s, v);
    __syncthreads();
    out[i] = v + s * 1000 + gridDim.x * 100000 + blockDim.x * 1000000;
    if (t == blockDim.x - 1) tot[b] = s;
}
