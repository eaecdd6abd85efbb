// Element-wise out[i] = a[i] OP b[i] for i < n: op 0 adds, 1 subtracts, 2 multiplies
// (32-bit wrap-around). qgpu chat's `u + v`, `u - v`, `u * v`. A block-stride loop, so
// one CTA of 4 threads covers any n the memory holds.
// qgpu: --grid 1 --block 4 a=1,2,3,4,5 b=10,20,30,40,50 out=zeros:5 n=5 op=1
__global__ void elementwise(const int* a, const int* b, int* out, int n, int op) {
    for (int i = threadIdx.x; i < n; i += blockDim.x) {
        int x = a[i];
        int y = b[i];
        int r = x * y;
        if (op == 0) r = x + y;
        if (op == 1) r = x - y;
        out[i] = r;
    }
}
