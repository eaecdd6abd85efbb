// __device__ helpers (inlined) and #define constants: murmur3 fmix32,
// xorshift32 iterated a data-dependent number of times, and a combine.
// qgpu: --grid 1 --block 4 seed=0,1,305419896,4294967295 rounds=0,1,5,17
// qgpu: out=zeros:12
#define C1 0x85ebca6bu
#define C2 0xc2b2ae35u

__device__ unsigned int fmix32(unsigned int h) {
    h ^= h >> 16;
    h *= C1;
    h ^= h >> 13;
    h *= C2;
    h ^= h >> 16;
    return h;
}

__device__ unsigned int xorshift32(unsigned int x) {
    x ^= x << 13;
    x ^= x >> 17;
    x ^= x << 5;
    return x;
}

__device__ int combine(unsigned int a, unsigned int b) {
    return (int)(a ^ (b + 0x9e3779b9u + (a << 6) + (a >> 2)));
}

__global__ void hash_helpers(const unsigned int* seed, const int* rounds,
                             unsigned int* out) {
    int t = threadIdx.x;
    unsigned int s = seed[t];
    unsigned int f = fmix32(s);
    unsigned int x = s | 1u;
    for (int r = 0; r < rounds[t]; ++r) x = xorshift32(x);
    out[3 * t + 0] = f;
    out[3 * t + 1] = x;
    out[3 * t + 2] = (unsigned int)combine(f, x);
}
