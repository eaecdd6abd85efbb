// MurmurHash3 x86_32 over a per-thread, data-dependent number of words
// (multiply constants, rotl, fmix), seeded per thread. 8 threads.
// qgpu: --grid 1 --block 8
// qgpu: data=1684234849,1145258561,305419896,4294967295,0,16909060,2155905152,1936287828,1,2,3,4
// qgpu: nw=0,1,2,3,4,5,8,12 out=zeros:8
__global__ void murmur3(const unsigned int* data, const int* nw, unsigned int* out) {
    int t = threadIdx.x;
    unsigned int h = 0x9747b28cu ^ (unsigned int)t;
    int n = nw[t];
    for (int i = 0; i < n; ++i) {
        unsigned int k = data[i];
        k *= 0xcc9e2d51u;
        k = (k << 15) | (k >> 17);
        k *= 0x1b873593u;
        h ^= k;
        h = (h << 13) | (h >> 19);
        h = h * 5u + 0xe6546b64u;
    }
    h ^= (unsigned int)(n * 4);
    h ^= h >> 16;
    h *= 0x85ebca6bu;
    h ^= h >> 13;
    h *= 0xc2b2ae35u;
    h ^= h >> 16;
    out[t] = h;
}
