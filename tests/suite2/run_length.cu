// Run-length statistics over overlapping 8-element windows (start 4*t):
// number of runs, longest run, the value of the first longest run, and the
// number of runs of length 1 (continue skips them). 8 threads.
// qgpu: --grid 1 --block 8
// qgpu: data=1,1,1,2,2,3,3,3,3,4,5,5,5,5,5,6,7,8,8,9,9,9,9,9,9,0,0,-1,-1,-1,2,2,2,2,3,3,3,4,4,4
// qgpu: runs=zeros:8 longest=zeros:8 lval=zeros:8 singles=zeros:8
__global__ void run_length(const int* data, int* runs, int* longest, int* lval, int* singles) {
    int t = threadIdx.x;
    const int* w = data + 4 * t;
    int nr = 0, best = 0, bv = 0, ones = 0;
    int i = 0;
    while (i < 8) {
        int v = w[i];
        int j = i + 1;
        while (j < 8 && w[j] == v) j++;
        int len = j - i;
        nr++;
        i = j;
        if (len == 1) {
            ones++;
            continue;
        }
        if (len > best) {
            best = len;
            bv = v;
        }
    }
    runs[t] = nr;
    longest[t] = best;
    lval[t] = bv;
    singles[t] = ones;
}
