// Early returns at several depths in a 7-thread CTA (warps of 4 and 3):
// threads write a marker before some returns; survivors finish the loop.
// qgpu: --grid 1 --block 7 in=4,-1,0,9,16,-20,3
// qgpu: out=zeros:7 trace=zeros:7
__global__ void early_exit(const int* in, int* out, int* trace) {
    int t = threadIdx.x;
    int x = in[t];
    if (x == 0) return;
    trace[t] = 1;
    if (x < 0) {
        trace[t] = 2;
        if (x < -10) return;
        out[t] = -x;
        return;
    }
    int acc = 0;
    for (int i = 0; i < x; ++i) {
        acc += i * t;
        if (acc > 50) {
            out[t] = acc;
            trace[t] = 3;
            return;
        }
    }
    out[t] = acc + 10000;
}
