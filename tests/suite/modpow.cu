// Square-and-multiply modular exponentiation (data-dependent loop, unsigned
// variable remainder) and a positive modulo of signed values.
// qgpu: --grid 1 --block 6
// qgpu: base=2,3,65520,12345,7,0 expo=10,0,65535,1000000,13,5
// qgpu: mod=1000,7,65521,9973,1,13 sv=-7,7,-65521,-1,5,-100
// qgpu: out=zeros:6 pm=zeros:6
__global__ void modpow(const unsigned int* base, const unsigned int* expo,
                       const unsigned int* mod, const int* sv,
                       unsigned int* out, int* pm) {
    int t = threadIdx.x;
    unsigned int m = mod[t];
    unsigned int b = base[t] % m;
    unsigned int e = expo[t];
    unsigned int r = 1u % m;
    while (e != 0u) {
        if (e & 1u) r = (r * b) % m;
        b = (b * b) % m;
        e >>= 1;
    }
    out[t] = r;
    int mi = (int)m;
    pm[t] = ((sv[t] % mi) + mi) % mi;
}
