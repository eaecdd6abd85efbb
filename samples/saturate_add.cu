// Saturating signed addition: add with wrap-around (via unsigned), detect
// overflow from the sign bits ((a ^ s) & (b ^ s)) < 0, then clamp to
// INT_MAX / INT_MIN with a select. Also reports the overflow flag.
// qgpu: --grid 1 --block 8
// qgpu: a=2147483647,-2147483648,1000,-5,2147483000,-2147483000,0,-1
// qgpu: b=1,-1,2000,-7,1000,-1000,-2147483648,-2147483648
// qgpu: out=zeros:8 ovf=zeros:8
__global__ void saturate_add(const int* a, const int* b, int* out, int* ovf) {
    int i = threadIdx.x;
    int x = a[i];
    int y = b[i];
    int s = (int)((unsigned)x + (unsigned)y);
    int o = ((x ^ s) & (y ^ s)) < 0;
    out[i] = o ? (x < 0 ? (int)0x80000000 : 0x7FFFFFFF) : s;
    ovf[i] = o;
}
