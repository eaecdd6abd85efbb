// Nested loops with runtime bounds: each thread counts pairs (i, j), i < j,
// in its window whose sum equals its target, and the number of elements
// below its target; 8 threads, no unroll pragmas.
// qgpu: --grid 1 --block 8 n=10
// qgpu: v=1,5,3,7,2,6,4,8,0,9 target=9,10,4,100,8,-1,15,7
// qgpu: pairs=zeros:8 below=zeros:8
__global__ void count_matches(const int* v, const int* target, int* pairs,
                              int* below, int n) {
    int t = threadIdx.x;
    int tg = target[t];
    int p = 0, b = 0;
    int lo = t / 2, hi = n - (t % 3);
    for (int i = lo; i < hi; i++) {
        if (v[i] < tg) b++;
        for (int j = i + 1; j < hi; j++) {
            if (v[i] + v[j] == tg) p++;
        }
    }
    pairs[t] = p;
    below[t] = b;
}
