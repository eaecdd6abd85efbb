// Collatz trajectories: steps to reach 1 and the peak value per thread,
// launch-wide maximum steps (atomicMax) and total steps (atomicAdd);
// data-dependent loop with an if/else inside. 16 threads.
// qgpu: --grid 1 --block 16
// qgpu: start=1,2,3,6,7,9,27,97,871,12,19,25,31,41,54,73
// qgpu: steps=zeros:16 peak=zeros:16 mx=zeros:1 total=zeros:1
__global__ void collatz_max(const int* start, int* steps, int* peak, int* mx, int* total) {
    int t = threadIdx.x;
    int x = start[t];
    int s = 0, p = x;
    while (x != 1) {
        if (x & 1) x = 3 * x + 1;
        else x >>= 1;
        p = max(p, x);
        s++;
    }
    steps[t] = s;
    peak[t] = p;
    atomicMax(mx, s);
    atomicAdd(total, s);
}
