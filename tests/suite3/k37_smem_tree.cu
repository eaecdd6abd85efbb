// qgpu: --grid 1 --block 16
// qgpu: a=5,-3,8,1,9,-20,4,4,7,0,-1,13,2,6,-8,3 out=zeros:16 mx=zeros:1
__global__ void k37_smem_tree(const int* a, int* out, int* mx) {
    __shared__ int s[16];
    __shared__ int m[16];
    int t = threadIdx.x;
    s[t] = a[t]; m[t] = a[t];
    __syncthreads();
    for (int k = 8; k > 0; k >>= 1) {
        if (t < k) { s[t] += s[t + k]; m[t] = max(m[t], m[t + k]); }
        __syncthreads();
    }
    out[t] = s[0] - a[t];
    if (t == 0) mx[0] = m[0];
}
