// A loop with break and continue: each thread scans its row of 8 values,
// stops at the first negative (break), skips multiples of 3 (continue) and
// sums/counts the rest. Lanes leave the loop at different iterations.
// qgpu: --grid 1 --block 4
// qgpu: data=1,2,3,4,5,6,7,8,9,10,-1,11,12,13,14,15,-5,1,2,3,4,5,6,7,0,3,6,9,12,1,-2,4
// qgpu: sum=zeros:4 cnt=zeros:4
__global__ void loop_break_continue(const int* data, int* sum, int* cnt) {
    int i = threadIdx.x;
    int s = 0;
    int c = 0;
#pragma unroll 1
    for (int j = 0; j < 8; ++j) {
        int v = data[8 * i + j];
        if (v < 0) break;
        if (v % 3 == 0) continue;
        s += v;
        c += 1;
    }
    sum[i] = s;
    cnt[i] = c;
}
