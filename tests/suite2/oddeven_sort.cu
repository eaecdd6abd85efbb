// Odd-even transposition sort of 16 values by 8 threads (each owns one
// compare-exchange pair per phase), 16 phases with a barrier in the loop,
// then a rank check. 8 threads.
// qgpu: --grid 1 --block 8
// qgpu: in=5,3,9,3,-1,5,5,0,-7,9,100,-100,2,2,1,0
// qgpu: out=zeros:16 ok=zeros:1
__global__ void oddeven_sort(const int* in, int* out, int* ok) {
    __shared__ int s[16];
    int t = threadIdx.x;
    s[t] = in[t];
    s[t + 8] = in[t + 8];
    __syncthreads();
    for (int ph = 0; ph < 16; ++ph) {
        int i = 2 * t + (ph & 1);
        if (i + 1 < 16) {
            int x = s[i], y = s[i + 1];
            if (x > y) {
                s[i] = y;
                s[i + 1] = x;
            }
        }
        __syncthreads();
    }
    out[t] = s[t];
    out[t + 8] = s[t + 8];
    int bad = (s[2 * t] > s[2 * t + 1]) + (t < 7 && s[2 * t + 1] > s[2 * t + 2]);
    atomicAdd(ok, bad ? 0 : 1);
}
