// One thread insertion-sorts 10 values in place in global memory (copy
// first), then removes duplicates in place and writes the unique count.
// The other 7 threads of the CTA just return.
// qgpu: --grid 1 --block 8 n=10
// qgpu: in=5,3,9,3,-1,5,5,0,-7,9 out=zeros:10 uniq=zeros:1
__global__ void insertion_sort_global(const int* in, int* out, int* uniq, int n) {
    if (threadIdx.x != 0) return;
    for (int i = 0; i < n; ++i) out[i] = in[i];
    for (int i = 1; i < n; ++i) {
        int key = out[i];
        int j = i;
        while (j > 0 && out[j - 1] > key) {
            out[j] = out[j - 1];
            j--;
        }
        out[j] = key;
    }
    int m = 1;
    for (int i = 1; i < n; ++i) {
        if (out[i] != out[m - 1]) {
            out[m] = out[i];
            m++;
        }
    }
    for (int i = m; i < n; ++i) out[i] = 0;
    uniq[0] = m;
}
