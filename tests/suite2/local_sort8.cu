// Each thread copies its 8 values into a local array and insertion-sorts
// them there (dynamic indexing: a stack array in CUDA terms), then writes
// them back. 4 threads.
// qgpu: --grid 1 --block 4
// qgpu: in=5,3,9,3,-1,5,5,0,-7,9,100,-100,2,2,1,0,8,7,6,5,4,3,2,1,1,2,3,4,5,6,7,8
// qgpu: out=zeros:32
__global__ void local_sort8(const int* in, int* out) {
    int t = threadIdx.x;
    int v[8];
    for (int i = 0; i < 8; ++i) v[i] = in[8 * t + i];
    for (int i = 1; i < 8; ++i) {
        int key = v[i];
        int j = i - 1;
        while (j >= 0 && v[j] > key) {
            v[j + 1] = v[j];
            --j;
        }
        v[j + 1] = key;
    }
    for (int i = 0; i < 8; ++i) out[8 * t + i] = v[i];
}
