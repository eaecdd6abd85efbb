// Unsigned hashing: xorshift32 rounds (logical shifts, xor) for a scalar
// number of rounds, then a Knuth multiplicative step that overflows.
// qgpu: --grid 1 --block 4 seed=1,2463534242,0,4294967295 rounds=3 out=zeros:4
__global__ void hash_mix(const unsigned* seed, int rounds, unsigned* out) {
    int i = threadIdx.x;
    unsigned h = seed[i];
#pragma unroll 1
    for (int r = 0; r < rounds; ++r) {
        h ^= h << 13;
        h ^= h >> 17;
        h ^= h << 5;
    }
    h *= 2654435761u;
    out[i] = h ^ (h >> 16);
}
