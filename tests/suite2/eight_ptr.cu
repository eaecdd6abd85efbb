// Eight pointer parameters (five inputs, three outputs) over 12 threads
// (96 words): every output mixes all five inputs.
// qgpu: --grid 1 --block 12
// qgpu: a=1,2,3,4,5,6,7,8,9,10,11,12 b=-1,-2,-3,-4,-5,-6,-7,-8,-9,-10,-11,-12
// qgpu: c=3,1,4,1,5,9,2,6,5,3,5,8 d=100,-100,7,-7,0,1,2147483647,-2147483648,9,99,999,9999
// qgpu: e=0,1,2,3,4,5,6,7,8,9,10,11
// qgpu: o1=zeros:12 o2=zeros:12 o3=zeros:12
__global__ void eight_ptr(const int* a, const int* b, const int* c, const int* d, const int* e,
                          int* o1, int* o2, unsigned int* o3) {
    int t = threadIdx.x;
    int x = a[t], y = b[t], z = c[t], w = d[t], v = e[t];
    o1[t] = x * z + y * v - (w >> 3) + max(x, -y) * min(z, v);
    o2[t] = (w % (z + 1)) + (x ^ v) * (y & 0xff) - abs(y - z);
    o3[t] = ((unsigned int)w >> (v & 31)) ^ ((unsigned int)(x + y + z) << (z & 7)) ^ (unsigned int)(v * 0x01010101);
}
