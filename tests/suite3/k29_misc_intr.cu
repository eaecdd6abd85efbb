// qgpu: --grid 1 --block 8
// qgpu: a=-7,7,-2147483648,2147483647,0,-1,100,-100
// qgpu: b=3,-3,-1,1,-2147483648,2147483647,-100,100
// qgpu: sad=zeros:8 hadd=zeros:8 rh=zeros:8 ab=zeros:8 fs=zeros:8
__global__ void k29_misc_intr(const int* a, const int* b, unsigned* sad, int* hadd, int* rh, int* ab, unsigned* fs) {
    int t = threadIdx.x;
    int x = a[t], y = b[t];
    sad[t] = __sad(x, y, 5u) + __usad((unsigned)x, (unsigned)y, 0u);
    hadd[t] = __hadd(x, y);
    rh[t] = __rhadd(x, y);
    ab[t] = abs(x);
    fs[t] = __funnelshift_l((unsigned)x, (unsigned)y, t * 5) ^ __funnelshift_r((unsigned)x, (unsigned)y, t * 9);
}
