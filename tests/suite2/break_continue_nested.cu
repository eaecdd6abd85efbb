// Nested loops with continue and break: each thread walks its row of 6
// values, skips negatives, stops at a zero sentinel, and for each kept value
// counts its divisors up to 12 with an inner loop that breaks early past
// a limit. 8 threads.
// qgpu: --grid 1 --block 8
// qgpu: m=12,-1,6,0,5,5,7,8,9,10,11,12,-3,-4,0,1,2,3,60,36,24,-12,0,1,1,1,1,1,1,1,0,2,3,4,5,6,100,-100,97,0,0,0,-5,-6,-7,-8,-9,-10,48,0,48,0,48,0
// qgpu: cnt=zeros:8 kept=zeros:8 last=zeros:8
__global__ void break_continue_nested(const int* m, int* cnt, int* kept, int* last) {
    int t = threadIdx.x;
    const int* row = m + 6 * t;
    int c = 0, k = 0, lv = -1;
    for (int i = 0; i < 6; ++i) {
        int v = row[i];
        if (v < 0) continue;
        if (v == 0) break;
        k++;
        lv = v;
        for (int d = 1; d <= 12; ++d) {
            if (d > v) break;
            if (v % d) continue;
            c++;
            if (c > 20) break;
        }
    }
    cnt[t] = c;
    kept[t] = k;
    last[t] = lv;
}
