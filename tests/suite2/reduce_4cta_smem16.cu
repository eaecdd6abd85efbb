// 4 CTAs of 4 threads, each CTA with a shared buffer sized for up to 16
// threads (s[16]): grid-stride partial sums over 64 values, a shared tree
// reduction, and one result per CTA plus a global atomic total.
// qgpu: --grid 4 --block 4 n=64
// qgpu: in=1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,-1,-2,-3,-4,-5,-6,-7,-8,-9,-10,-11,-12,-13,-14,-15,-16,100,200,300,400,500,600,700,800,900,1000,1100,1200,1300,1400,1500,1600,7,7,7,7,7,7,7,7,7,7,7,7,7,7,7,7
// qgpu: out=zeros:4 total=zeros:1
__global__ void reduce_4cta_smem16(const int* in, int* out, int* total, int n) {
    __shared__ int s[16];
    int t = threadIdx.x;
    int acc = 0;
    for (int i = blockIdx.x * blockDim.x + t; i < n; i += blockDim.x * gridDim.x) acc += in[i];
    s[t] = acc;
    __syncthreads();
    for (int k = blockDim.x / 2; k > 0; k >>= 1) {
        if (t < k) s[t] += s[t + k];
        __syncthreads();
    }
    if (t == 0) {
        out[blockIdx.x] = s[0];
        atomicAdd(total, s[0]);
    }
}
