// Grid-stride loop (4 CTAs of 4 threads, n = 40): in-place transform,
// global atomic sum/min/max of the new values, and per-thread iteration
// counts and local sums. 
// qgpu: --grid 4 --block 4 n=40
// qgpu: a=1,-2,3,-4,5,-6,7,-8,9,-10,11,-12,13,-14,15,-16,17,-18,19,-20,21,-22,23,-24,25,-26,27,-28,29,-30,31,-32,33,-34,35,-36,37,-38,39,-40
// qgpu: sum=zeros:1 mn=2147483647 mx=-2147483648 cnt=zeros:16 loc=zeros:16
__global__ void grid_stride_multi(int* a, int* sum, int* mn, int* mx, int* cnt, int* loc, int n) {
    int tid = blockIdx.x * blockDim.x + threadIdx.x;
    int stride = blockDim.x * gridDim.x;
    int c = 0, s = 0;
    for (int i = tid; i < n; i += stride) {
        int v = a[i] * 3 - i;
        a[i] = v;
        atomicAdd(sum, v);
        atomicMin(mn, v);
        atomicMax(mx, v);
        s += v;
        c++;
    }
    cnt[tid] = c;
    loc[tid] = s;
}
