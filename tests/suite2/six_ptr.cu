// Six pointer parameters over 16 threads (96 words): mixed arithmetic,
// min/max, selects and unsigned compares per element.
// qgpu: --grid 1 --block 16
// qgpu: a=1,-2,3,-4,5,-6,7,-8,9,-10,11,-12,13,-14,15,-16
// qgpu: b=100,200,-300,400,-500,600,700,-800,900,1000,-1100,1200,1300,1400,-1500,1600
// qgpu: c=7,7,7,7,-7,-7,-7,-7,0,0,0,0,2147483647,-2147483648,1,-1
// qgpu: d=3,1,4,1,5,9,2,6,5,3,5,8,9,7,9,3
// qgpu: o1=zeros:16 o2=zeros:16
__global__ void six_ptr(const int* a, const int* b, const int* c, const int* d, int* o1,
                        unsigned int* o2) {
    int t = threadIdx.x;
    int x = a[t], y = b[t], z = c[t], w = d[t];
    int m = x * y + z - w;
    int hi = max(max(x, y), max(z, w));
    int lo = min(min(x, y), min(z, w));
    o1[t] = (m > 0 ? m : -m) / (w + 1) + (hi - lo) % 97;
    unsigned int u = (unsigned int)z;
    unsigned int r = (u > (unsigned int)w ? u - (unsigned int)w : (unsigned int)w - u);
    r ^= (unsigned int)(x < y) << 31;
    o2[t] = r + (unsigned int)(z == w) + ((unsigned int)y >> (w & 15));
}
