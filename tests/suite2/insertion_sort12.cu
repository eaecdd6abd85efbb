// Thread 0 insertion-sorts 12 values in shared memory (data-dependent inner
// while loop); thread 1 meanwhile counts the negatives; after a barrier all
// threads copy out and thread 3 writes min, max, median and distinct count.
// qgpu: --grid 1 --block 4 n=12
// qgpu: in=9,-3,7,7,0,12,-8,5,100,-100,3,7 out=zeros:12 stats=zeros:5
__global__ void insertion_sort12(const int* in, int* out, int* stats, int n) {
    __shared__ int s[12];
    __shared__ int negs;
    int t = threadIdx.x;
    for (int i = t; i < n; i += blockDim.x) s[i] = in[i];
    __syncthreads();
    if (t == 0) {
        for (int i = 1; i < n; ++i) {
            int key = s[i];
            int j = i - 1;
            while (j >= 0 && s[j] > key) {
                s[j + 1] = s[j];
                --j;
            }
            s[j + 1] = key;
        }
    } else if (t == 1) {
        int c = 0;
        for (int i = 0; i < n; ++i) c += in[i] < 0;
        negs = c;
    }
    __syncthreads();
    for (int i = t; i < n; i += blockDim.x) out[i] = s[i];
    if (t == 3) {
        int d = 1;
        for (int i = 1; i < n; ++i) d += s[i] != s[i - 1];
        stats[0] = s[0];
        stats[1] = s[n - 1];
        stats[2] = (s[n / 2 - 1] + s[n / 2]) / 2;
        stats[3] = d;
        stats[4] = negs;
    }
}
