// Per-thread bubble sort of 8 values held in a small array with only
// constant-trip loops (nvcc unrolls them fully and keeps the array in
// registers), plus the median pair sum. 4 threads.
// qgpu: --grid 1 --block 4
// qgpu: in=5,3,9,3,-1,5,5,0,-7,9,100,-100,2,2,1,0,8,7,6,5,4,3,2,1,1,2,3,4,5,6,7,8
// qgpu: out=zeros:32 med=zeros:4
__global__ void bubble_regs8(const int* in, int* out, int* med) {
    int t = threadIdx.x;
    int v[8];
    for (int i = 0; i < 8; ++i) v[i] = in[8 * t + i];
    for (int i = 0; i < 7; ++i) {
        for (int j = 0; j < 7 - i; ++j) {
            int a = v[j], b = v[j + 1];
            v[j] = min(a, b);
            v[j + 1] = max(a, b);
        }
    }
    for (int i = 0; i < 8; ++i) out[8 * t + i] = v[i];
    med[t] = v[3] + v[4];
}
