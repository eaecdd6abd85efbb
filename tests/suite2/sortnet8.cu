// Optimal 19-comparator sorting network for 8 values per thread, written
// out by hand as min/max pairs on scalar variables. 4 threads.
// qgpu: --grid 1 --block 4
// qgpu: in=5,3,9,3,-1,5,5,0,-7,9,100,-100,2,2,1,0,8,7,6,5,4,3,2,1,1,2,3,4,5,6,7,8
// qgpu: out=zeros:32
#define CE(a, b) { int lo_ = min(a, b); int hi_ = max(a, b); a = lo_; b = hi_; }
__global__ void sortnet8(const int* in, int* out) {
    int t = threadIdx.x;
    const int* p = in + 8 * t;
    int a0 = p[0], a1 = p[1], a2 = p[2], a3 = p[3], a4 = p[4], a5 = p[5], a6 = p[6], a7 = p[7];
    CE(a0, a2) CE(a1, a3) CE(a4, a6) CE(a5, a7)
    CE(a0, a4) CE(a1, a5) CE(a2, a6) CE(a3, a7)
    CE(a0, a1) CE(a2, a3) CE(a4, a5) CE(a6, a7)
    CE(a2, a4) CE(a3, a5)
    CE(a1, a4) CE(a3, a6)
    CE(a1, a2) CE(a3, a4) CE(a5, a6)
    int* o = out + 8 * t;
    o[0] = a0; o[1] = a1; o[2] = a2; o[3] = a3; o[4] = a4; o[5] = a5; o[6] = a6; o[7] = a7;
}
