// Nested loops with data-dependent trip counts: thread i computes
// sum_{j < len[i]} sum_{k <= j} a[j] * a[k + i]; len 0 skips both loops.
// qgpu: --grid 1 --block 4 len=3,0,5,1 a=2,-1,3,4,-2,5,1,7 out=zeros:4
__global__ void nested_loops(const int* len, const int* a, int* out) {
    int i = threadIdx.x;
    int n = len[i];
    int acc = 0;
#pragma unroll 1
    for (int j = 0; j < n; ++j) {
        int aj = a[j];
#pragma unroll 1
        for (int k = 0; k <= j; ++k) {
            acc += aj * a[k + i];
        }
    }
    out[i] = acc;
}
