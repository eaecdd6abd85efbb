// Euclid's algorithm per lane: a data-dependent loop of variable-divisor
// remainders; also lcm = a / g * b and the number of steps taken.
// qgpu: --grid 1 --block 8
// qgpu: a=48,17,0,100,270,1071,13,36 b=18,5,9,75,192,462,13,0
// qgpu: g=zeros:8 l=zeros:8 steps=zeros:8
__global__ void gcd(const int* a, const int* b, int* g, int* l, int* steps) {
    int i = threadIdx.x;
    int x = a[i];
    int y = b[i];
    int n = 0;
    while (y != 0) {
        int t = x % y;
        x = y;
        y = t;
        n++;
    }
    g[i] = x;
    l[i] = x == 0 ? 0 : a[i] / x * b[i];
    steps[i] = n;
}
