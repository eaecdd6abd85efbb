// Integer power by squaring with signed overflow detection through __mulhi
// (high word must be the sign extension of the low word); stops on the
// first overflow and reports the exponent bit where it happened. The low
// word is an unsigned product so nvcc cannot assume it does not wrap. 8 threads.
// qgpu: --grid 1 --block 8
// qgpu: base=2,3,-2,10,7,-1,46341,0
// qgpu: ex=30,20,31,9,11,12345,2,5
// qgpu: res=zeros:8 ovf=zeros:8
__device__ bool mul_ovf(int a, int b, int* r) {
    int lo = (int)((unsigned int)a * (unsigned int)b);  // no signed-overflow UB
    int hi = __mulhi(a, b);
    *r = lo;
    return hi != (lo >> 31);
}

__global__ void pow_overflow(const int* base, const int* ex, int* res, int* ovf) {
    int t = threadIdx.x;
    int b = base[t];
    int e = ex[t];
    int r = 1, bit = 0, bad = -1;
    while (e > 0) {
        if (e & 1) {
            if (mul_ovf(r, b, &r)) { bad = bit; break; }
        }
        e >>= 1;
        if (e > 0 && mul_ovf(b, b, &b)) { bad = 100 + bit; break; }
        bit++;
    }
    res[t] = r;
    ovf[t] = bad;
}
