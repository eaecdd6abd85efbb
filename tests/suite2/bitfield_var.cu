// Variable-position bit fields: extract (x >> pos) & ((1 << len) - 1),
// insert a field at a variable position, variable rotate by (pos + len),
// and unsigned vs signed right shifts by variable amounts. 12 threads.
// qgpu: --grid 1 --block 12
// qgpu: x=305419896,4294967295,2147483648,0,1,2863311530,4042322160,65535,123456789,3735928559,16777216,4294901760
// qgpu: pos=0,4,31,10,0,3,8,16,5,20,24,1
// qgpu: len=8,12,1,5,31,7,16,16,9,12,8,30
// qgpu: ext=zeros:12 ins=zeros:12 rot=zeros:12 sh=zeros:12
__global__ void bitfield_var(const unsigned int* x, const int* pos, const int* len, unsigned int* ext,
                             unsigned int* ins, unsigned int* rot, int* sh) {
    int t = threadIdx.x;
    unsigned int v = x[t];
    int p = pos[t], l = len[t];
    unsigned int mask = (l >= 32) ? 0xffffffffu : ((1u << l) - 1u);
    ext[t] = (v >> p) & mask;
    unsigned int f = (unsigned int)(t * 0x9E3779B9u) & mask;
    ins[t] = (v & ~(mask << p)) | (f << p);
    int k = (p + l) & 31;
    rot[t] = k ? ((v << k) | (v >> (32 - k))) : v;
    sh[t] = ((int)v >> p) + (int)(v >> p) - ((int)v >> (31 - p));
}
