// qgpu: --grid 1 --block 9
// qgpu: a=1,2,3,4,5,6,7,8,9 out=zeros:9
__global__ void k12_early_return_bar(const int* a, int* out) {
    __shared__ int s[9];
    int t = threadIdx.x;
    if (t == 2 || t >= 7) { out[t] = -1; return; }
    s[t] = a[t] * 3;
    __syncthreads();
    int r = 0;
    for (int j = 0; j < 7; ++j) if (j != 2) r += s[j];
    out[t] = r + t;
}
