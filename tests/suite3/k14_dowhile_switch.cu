// qgpu: --grid 1 --block 8
// qgpu: a=27,1,0,6,7,97,-5,3 steps=zeros:8 sw=zeros:8
__global__ void k14_dowhile_switch(const int* a, int* steps, int* sw) {
    int t = threadIdx.x;
    int x = a[t];
    int n = 0;
    unsigned u = (unsigned)x;
    do {
        u = (u & 1u) ? 3u * u + 1u : u >> 1;
        n++;
    } while (u > 1u && n < 40);
    steps[t] = n;
    int r = 0;
    switch (x & 7) {
        case 0: r += 1;
        case 1: r += 10; break;
        case 3: r += 100;
        case 4:
        case 5: r += 1000; break;
        case 7: r = -r - 7;
        default: r += 5;
    }
    sw[t] = r;
}
