// Nested loops with continue in the outer and inner loop and a
// data-dependent break in the inner loop; 6 threads.
// qgpu: --grid 1 --block 6 n=7 data=3,-1,4,-1,5,-9,2
// qgpu: out=zeros:6
__global__ void nested_continue(const int* data, int* out, int n) {
    int t = threadIdx.x;
    int acc = 0;
    for (int i = 0; i < n; i++) {
        if (i % 3 == t % 3) continue;
        for (int j = i; j < n; j++) {
            if ((i + j) & 1) continue;
            if (j > i + t) break;
            acc += data[j] * (i + 1);
        }
    }
    out[t] = acc;
}
