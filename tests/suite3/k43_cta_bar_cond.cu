// qgpu: --grid 2 --block 8
// qgpu: a=1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16 out=zeros:16
__global__ void k43_cta_bar_cond(const int* a, int* out) {
    __shared__ int s[8];
    int t = threadIdx.x, b = blockIdx.x;
    int v = a[b * 8 + t];
    if (b == 1) {
        s[t] = v;
        __syncthreads();
        v += s[7 - t];
        __syncthreads();
        s[t] = v * 2;
        __syncthreads();
        v = s[(t + 3) & 7];
    } else {
        for (int k = 0; k < t; ++k) v += k;
    }
    out[b * 8 + t] = v;
}
