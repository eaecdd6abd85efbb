// Each thread sums its row of a ragged matrix (runtime row lengths, no
// pragma), and computes a weighted sum and the row maximum; 6 threads.
// qgpu: --grid 1 --block 6
// qgpu: start=0,5,6,14,14,19 len=5,1,8,0,5,11
// qgpu: v=4,-2,7,1,0,9,3,3,3,3,3,3,3,3,-1,-2,-3,-4,-5,10,20,30,40,50,60,70,80,90,100,-110
// qgpu: sums=zeros:6 wsum=zeros:6 rmax=zeros:6
__global__ void row_sums(const int* start, const int* len, const int* v,
                         int* sums, int* wsum, int* rmax) {
    int t = threadIdx.x;
    int s = 0, w = 0, m = -2147483647 - 1;
    const int* row = v + start[t];
    for (int j = 0; j < len[t]; j++) {
        int x = row[j];
        s += x;
        w += (j + 1) * x;
        m = max(m, x);
    }
    sums[t] = s;
    wsum[t] = w;
    rmax[t] = m;
}
