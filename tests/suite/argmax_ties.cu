// Per-thread argmax/argmin over a row with ties (first index wins), using
// selects in a loop; 3 CTAs of 4 threads, one row per thread.
// qgpu: --grid 3 --block 4
// qgpu: m=5,1,5,2,0,0,0,0,-1,-7,-7,3,9,8,9,9,4,3,2,1,1,2,3,4,-5,-5,-6,-6,7,-8,7,-8,2147483647,-2147483648,0,1,1,1,1,2,-3,3,-3,3,10,20,30,20
// qgpu: amax=zeros:12 amin=zeros:12
#define COLS 4

__global__ void argmax_ties(const int* __restrict__ m, int* __restrict__ amax,
                            int* __restrict__ amin) {
    int row = blockIdx.x * blockDim.x + threadIdx.x;
    const int* r = m + row * COLS;
    int bi = 0, bv = r[0];
    int si = 0, sv = r[0];
    for (int j = 1; j < COLS; ++j) {
        int v = r[j];
        bi = v > bv ? j : bi;
        bv = v > bv ? v : bv;
        if (v < sv) {
            si = j;
            sv = v;
        }
    }
    amax[row] = bi * 1000 + (bv & 0xff);
    amin[row] = si;
}
