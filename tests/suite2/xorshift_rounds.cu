// xorshift32 PRNG: a data-dependent number of rounds per thread, then 4
// fixed rounds unrolled by hand mixed with a Weyl sequence, and a bounded
// draw (value % range). 16 threads.
// qgpu: --grid 1 --block 16
// qgpu: seed=1,2,3,4,5,123456789,2463534242,4294967295,7,8,9,10,11,12,13,2147483648
// qgpu: rounds=0,1,2,3,5,8,13,21,0,1,2,3,4,5,6,7
// qgpu: out=zeros:16 mix=zeros:16 draw=zeros:16
__global__ void xorshift_rounds(const unsigned int* seed, const int* rounds, unsigned int* out,
                                unsigned int* mix, unsigned int* draw) {
    int t = threadIdx.x;
    unsigned int x = seed[t];
    for (int i = 0; i < rounds[t]; ++i) {
        x ^= x << 13;
        x ^= x >> 17;
        x ^= x << 5;
    }
    out[t] = x;
    unsigned int w = 0x9E3779B9u * (unsigned int)(t + 1);
    unsigned int y = x | 1u;
    y ^= y << 13; y ^= y >> 17; y ^= y << 5; y += w;
    y ^= y << 13; y ^= y >> 17; y ^= y << 5; y += w;
    y ^= y << 13; y ^= y >> 17; y ^= y << 5; y += w;
    y ^= y << 13; y ^= y >> 17; y ^= y << 5; y += w;
    mix[t] = y;
    draw[t] = y % (unsigned int)(t * 7 + 3);
}
