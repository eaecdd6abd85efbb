// Data-dependent trip counts: each lane iterates the Collatz map until it
// reaches 1, counting steps and tracking the peak (27 takes 111 steps).
// qgpu: --grid 1 --block 8 in=1,2,3,6,7,9,27,97 steps=zeros:8 peak=zeros:8
__global__ void collatz(const int* in, int* steps, int* peak) {
    int i = threadIdx.x;
    int x = in[i];
    int n = 0;
    int m = x;
    while (x != 1) {
        if (x & 1) {
            x = 3 * x + 1;
        } else {
            x = x >> 1;
        }
        m = max(m, x);
        n++;
    }
    steps[i] = n;
    peak[i] = m;
}
