// FNV-1a over a per-thread, data-dependent number of words (wrapping
// unsigned multiply), 5 threads = one full and one 1-lane warp.
// qgpu: --grid 1 --block 5
// qgpu: data=1,-2,3,-4,5,-6,7,-8,9,-10,11,-12,13,-14,15,2147483647
// qgpu: len=3,7,0,12,5 out=zeros:5
#define FNV_OFFSET 2166136261u
#define FNV_PRIME 16777619u

__global__ void fnv_hash(const int* data, const int* len, int* out) {
    int t = threadIdx.x;
    unsigned int h = FNV_OFFSET;
    for (int i = 0; i < len[t]; ++i) {
        h ^= (unsigned int)data[(t * 3 + i) % 16];
        h *= FNV_PRIME;
    }
    out[t] = (int)h;
}
