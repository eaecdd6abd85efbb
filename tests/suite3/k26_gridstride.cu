// qgpu: --grid 2 --block 6 n=5
// qgpu: a=3,1,4,1,5 out=zeros:5 hits=zeros:12
__global__ void k26_gridstride(const int* a, int* out, int* hits, int n) {
    int id = blockIdx.x * blockDim.x + threadIdx.x;
    int c = 0;
    for (int i = id; i < n; i += blockDim.x * gridDim.x) {
        out[i] = a[i] * a[i] + id;
        c++;
    }
    hits[id] = c;
}
