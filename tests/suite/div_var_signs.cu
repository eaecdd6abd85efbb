// Division by variable divisors of all sign combinations (signed and
// unsigned views of the same bits); no zero divisor, no INT_MIN / -1.
// qgpu: --grid 1 --block 8
// qgpu: a=17,-17,17,-17,-2147483648,2147483647,5,-1
// qgpu: b=5,5,-5,-5,7,-2,9,2147483647
// qgpu: q=zeros:8 r=zeros:8 uq=zeros:8 ur=zeros:8
__global__ void div_var_signs(const int* a, const int* b, int* q, int* r,
                              unsigned int* uq, unsigned int* ur) {
    int t = threadIdx.x;
    int x = a[t], y = b[t];
    q[t] = x / y;
    r[t] = x % y;
    uq[t] = (unsigned int)x / (unsigned int)y;
    ur[t] = (unsigned int)x % (unsigned int)y;
}
