// min/max/abs and select chains: clamp, median of three, sign, absolute
// difference without overflow (unsigned), unsigned min/max mix; three
// inputs and three outputs of 16 (96 words). 16 threads.
// qgpu: --grid 1 --block 16
// qgpu: a=1,-2,3,-4,50,-60,70,-80,2147483647,-2147483648,0,5,5,-5,100,-1
// qgpu: b=3,2,1,0,-50,60,-70,80,-2147483648,2147483647,0,5,6,-6,-100,1
// qgpu: c=2,-2,2,-2,0,0,100,-100,0,0,1,5,4,-4,0,0
// qgpu: med=zeros:16 ad=zeros:16 mix=zeros:16
__global__ void clamp_select(const int* a, const int* b, const int* c, int* med, unsigned int* ad,
                             int* mix) {
    int t = threadIdx.x;
    int x = a[t], y = b[t], z = c[t];
    med[t] = max(min(x, y), min(max(x, y), z));
    ad[t] = x > y ? (unsigned int)x - (unsigned int)y : (unsigned int)y - (unsigned int)x;
    int sg = (x > 0) - (x < 0);
    int cl = min(max(z * 10, -25), 25);
    unsigned int um = min((unsigned int)x, (unsigned int)y);
    int r = sg * 1000 + cl;
    r += (um > 1000u) ? 1 : (int)um;
    r = (t & 1) ? (x == y ? r : -r) : (abs(z) > 3 ? r * 2 : r);
    mix[t] = r;
}
