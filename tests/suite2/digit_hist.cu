// Decimal digit histogram: 2 CTAs of 6 threads decompose their value into
// digits (do/while, unsigned /10 %10), count them in a shared histogram of
// 10 bins with shared atomicAdd, then merge into global with atomicAdd.
// qgpu: --grid 2 --block 6
// qgpu: v=0,7,10,99,12345,4294967295,1000000,31415926,271828,11,808,5
// qgpu: hist=zeros:10 ndig=zeros:12
__global__ void digit_hist(const unsigned int* v, unsigned int* hist, int* ndig) {
    __shared__ unsigned int sh[10];
    int t = threadIdx.x;
    for (int i = t; i < 10; i += blockDim.x) sh[i] = 0u;
    __syncthreads();
    unsigned int x = v[blockIdx.x * blockDim.x + t];
    int n = 0;
    do {
        atomicAdd(&sh[x % 10u], 1u);
        x /= 10u;
        n++;
    } while (x);
    ndig[blockIdx.x * blockDim.x + t] = n;
    __syncthreads();
    for (int i = t; i < 10; i += blockDim.x)
        if (sh[i]) atomicAdd(&hist[i], sh[i]);
}
