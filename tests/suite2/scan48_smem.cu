// One CTA of 16 threads scans 48 values (3 per thread, sequential within a
// thread, Hillis-Steele across threads on a double buffer in shared
// memory); 96 words of global data plus 32 shared words.
// qgpu: --grid 1 --block 16
// qgpu: in=1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,22,23,24,-1,-2,-3,-4,-5,-6,-7,-8,-9,-10,-11,-12,-13,-14,-15,-16,-17,-18,-19,-20,-21,-22,-23,-24
// qgpu: out=zeros:48
__global__ void scan48_smem(const int* in, int* out) {
    __shared__ int buf[2][16];
    int t = threadIdx.x;
    int a = in[3 * t], b = a + in[3 * t + 1], c = b + in[3 * t + 2];
    int cur = 0;
    buf[0][t] = c;
    __syncthreads();
    for (int off = 1; off < 16; off <<= 1) {
        buf[1 - cur][t] = buf[cur][t] + (t >= off ? buf[cur][t - off] : 0);
        cur = 1 - cur;
        __syncthreads();
    }
    int base = buf[cur][t] - c;
    out[3 * t] = base + a;
    out[3 * t + 1] = base + b;
    out[3 * t + 2] = base + c;
}
