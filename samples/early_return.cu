// Early returns: out-of-range threads exit at once, zero divisors exit after
// writing a marker, negative values exit before the second store.
// 6 threads = 2 warps, the second one partial (2 lanes); n=5 so lane 5 exits.
// qgpu: --grid 1 --block 6 in=7,0,-3,250,1,99 out=zeros:6 out2=zeros:6 n=5
__global__ void early_return(const int* in, int* out, int* out2, int n) {
    int i = threadIdx.x;
    if (i >= n) return;
    int v = in[i];
    if (v == 0) {
        out[i] = -1;
        return;
    }
    out[i] = 1000 / v;
    if (v < 0) return;
    out2[i] = v * v;
}
