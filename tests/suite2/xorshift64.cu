// xorshift64 on unsigned long long state built from two words (64-bit
// shifts and xors), a data-dependent number of rounds; the low and high
// halves are stored separately as 32-bit words. 8 threads.
// qgpu: --grid 1 --block 8
// qgpu: lo=1,2,88172645,4294967295,0,123,305419896,7
// qgpu: hi=0,0,463215,4294967295,1,0,2596069104,7
// qgpu: rounds=1,2,3,4,5,6,7,0
// qgpu: olo=zeros:8 ohi=zeros:8
__global__ void xorshift64(const unsigned int* lo, const unsigned int* hi, const int* rounds,
                           unsigned int* olo, unsigned int* ohi) {
    int t = threadIdx.x;
    unsigned long long x = ((unsigned long long)hi[t] << 32) | lo[t];
    for (int i = 0; i < rounds[t]; ++i) {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
    }
    olo[t] = (unsigned int)x;
    ohi[t] = (unsigned int)(x >> 32);
}
