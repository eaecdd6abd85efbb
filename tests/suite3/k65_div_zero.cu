// Division and remainder by zero, and INT_MIN / -1 and % -1, signed and unsigned, with the
// operands read from memory so that nvcc cannot fold them. C++ leaves these undefined and PTX
// leaves div/rem by zero unspecified; the kernel records what the hardware's instruction
// sequence gives (tests/hw/) next to the machine's rule (docs/machine.md, "Semantics").
// qgpu: --grid 1 --block 8
// qgpu: a=7,-7,0,-2147483648,2147483647,-1,-2147483648,123
// qgpu: b=0,0,0,0,0,0,-1,0
// qgpu: q=zeros:8 r=zeros:8 uq=zeros:8 ur=zeros:8
__global__ void k65_div_zero(const int* a, const int* b, int* q, int* r, unsigned* uq, unsigned* ur) {
    int t = threadIdx.x;
    int x = a[t], y = b[t];
    q[t] = x / y;
    r[t] = x % y;
    uq[t] = (unsigned)x / (unsigned)y;
    ur[t] = (unsigned)x % (unsigned)y;
}
