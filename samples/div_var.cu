// Division and remainder by run-time divisors: signed (all sign
// combinations, C truncation toward zero) and unsigned (operands >= 2^31).
// qr[2*i] = a / b, qr[2*i+1] = a % b; uqr likewise for ua, ub.
// qgpu: --grid 1 --block 8
// qgpu: a=17,-17,17,-17,2147483647,-2147483648,5,0
// qgpu: b=5,5,-5,-5,-1,2,7,-3 qr=zeros:16
// qgpu: ua=4294967295,100,7,3000000000,1,0,65535,4000000000
// qgpu: ub=16,7,100,7,1,5,255,3000000001 uqr=zeros:16
__global__ void div_var(const int* a, const int* b, int* qr,
                        const unsigned* ua, const unsigned* ub,
                        unsigned* uqr) {
    int i = threadIdx.x;
    int x = a[i];
    int y = b[i];
    qr[2 * i + 0] = x / y;
    qr[2 * i + 1] = x % y;
    unsigned p = ua[i];
    unsigned d = ub[i];
    uqr[2 * i + 0] = p / d;
    uqr[2 * i + 1] = p % d;
}
