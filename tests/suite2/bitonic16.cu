// Bitonic sort of 16 ints in shared memory, one element per thread, the
// classic nested k/j loops with a barrier after every compare-exchange
// step. Also writes the sorted order descending. 16 threads.
// qgpu: --grid 1 --block 16
// qgpu: in=9,-3,7,7,0,12,-8,5,100,-100,3,1,2147483647,-2147483648,42,7
// qgpu: asc=zeros:16 desc=zeros:16
__global__ void bitonic16(const int* in, int* asc, int* desc) {
    __shared__ int s[16];
    int t = threadIdx.x;
    s[t] = in[t];
    __syncthreads();
    for (int k = 2; k <= 16; k <<= 1) {
        for (int j = k >> 1; j > 0; j >>= 1) {
            int p = t ^ j;
            if (p > t) {
                int x = s[t], y = s[p];
                bool up = (t & k) == 0;
                if ((x > y) == up) {
                    s[t] = y;
                    s[p] = x;
                }
            }
            __syncthreads();
        }
    }
    asc[t] = s[t];
    desc[t] = s[15 - t];
}
