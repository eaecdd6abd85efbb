// Ten running statistics over a per-thread row of 8 values in one loop:
// sum, sum of squares, min, max, argmin, argmax, positives, negatives,
// zeros and an xor checksum; all written out. 4 threads, 8 outputs + 2.
// qgpu: --grid 1 --block 4 n=8
// qgpu: m=3,-1,4,1,-5,9,2,-6,0,0,0,7,7,-7,1,1,100,-100,50,-50,25,-25,12,-12,5,5,5,5,5,5,5,5
// qgpu: st=zeros:40
__global__ void row_stats10(const int* m, int* st, int n) {
    int t = threadIdx.x;
    const int* r = m + n * t;
    int sum = 0, sq = 0, mn = r[0], mx = r[0], amin = 0, amax = 0;
    int pos = 0, neg = 0, zer = 0;
    unsigned int chk = 0u;
    for (int i = 0; i < n; ++i) {
        int v = r[i];
        sum += v;
        sq += v * v;
        if (v < mn) { mn = v; amin = i; }
        if (v > mx) { mx = v; amax = i; }
        pos += v > 0;
        neg += v < 0;
        zer += v == 0;
        chk = (chk << 3 | chk >> 29) ^ (unsigned int)v;
    }
    int* o = st + 10 * t;
    o[0] = sum;
    o[1] = sq;
    o[2] = mn;
    o[3] = mx;
    o[4] = amin;
    o[5] = amax;
    o[6] = pos;
    o[7] = neg;
    o[8] = zer;
    o[9] = (int)chk;
}
