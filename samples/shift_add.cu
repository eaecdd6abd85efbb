// Straight-line integer mix for one warp: shifts by constants and by per-thread
// amounts (logical and arithmetic), adds and subtracts, parameters and thread ids.
// Every op here runs in the GPU circuit today (docs/circuit.md lists them).
// qgpu: --grid 1 --block 4 a=-16,305419896,-2147483648,255 s=3,31,1,0 k=1000
// qgpu: out=zeros:12
__global__ void shift_add(const int* a, const int* s, int k, int* out) {
    int i = threadIdx.x;
    int v = a[i];
    int n = s[i];
    out[i] = (v << 3) - (v >> n) + k;
    out[4 + i] = (int)((unsigned)v >> n) + i;
    out[8 + i] = (v >> 2) - (int)blockDim.x;
}
