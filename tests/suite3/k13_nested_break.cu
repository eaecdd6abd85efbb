// qgpu: --grid 1 --block 8
// qgpu: a=0,1,5,13,17,22,31,100 out=zeros:8 out2=zeros:8
__global__ void k13_nested_break(const int* a, int* out, int* out2) {
    int t = threadIdx.x;
    int x = a[t];
    int acc = 0, c = 0;
    for (int i = 0; i < 6; ++i) {
        if ((x + i) % 3 == 0) continue;
        for (int j = 0; j < 5; ++j) {
            if (j * i > x) break;
            if ((i ^ j) == 3) continue;
            acc += i * 10 + j;
            c++;
        }
        if (acc > 150) break;
    }
    out[t] = acc;
    out2[t] = c;
}
