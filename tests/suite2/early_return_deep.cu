// Early returns at several depths inside loops and a switch: each thread
// scans its row of 5 values and returns as soon as a condition holds,
// writing which exit it took; 11 threads (warps of 4, 4, 3).
// qgpu: --grid 1 --block 11
// qgpu: m=1,2,3,4,5,-1,2,3,4,5,1,2,99,4,5,0,0,0,0,0,7,7,7,7,7,1,-2,3,-4,5,50,40,30,20,10,1,1,1,1,100,3,6,9,12,15,2,4,8,16,32,5,4,3,2,1
// qgpu: code=zeros:11 acc=zeros:11
__global__ void early_return_deep(const int* m, int* code, int* acc) {
    int t = threadIdx.x;
    const int* r = m + 5 * t;
    int s = 0;
    code[t] = -1;
    for (int i = 0; i < 5; ++i) {
        int v = r[i];
        if (v < 0) {
            code[t] = 10 + i;
            acc[t] = s;
            return;
        }
        switch (v % 4) {
        case 0:
            s += v;
            if (s > 60) {
                code[t] = 20 + i;
                acc[t] = s;
                return;
            }
            break;
        case 3:
            s -= 1;
            break;
        default:
            s += 2 * v;
        }
        if (v > 90) {
            for (int j = 0; j < i; ++j) {
                if (r[j] == 1) {
                    code[t] = 30 + j;
                    acc[t] = s;
                    return;
                }
            }
        }
    }
    acc[t] = s;
    if (s == 0) return;
    code[t] = 0;
}
