// Lower-triangular matrix-vector product with a per-row trip count and an
// unsigned count-down loop for a second pass (nested, data-dependent).
// qgpu: --grid 1 --block 6 n=6
// qgpu: A=1,2,3,4,5,6,-1,-2,-3,-4,-5,-6,7,0,7,0,7,0,1,1,1,1,1,1,100,-100,50,-50,25,-25,3,1,4,1,5,9
// qgpu: x=1,-2,3,-4,5,-6 y=zeros:6 z=zeros:6
__global__ void tri_matvec(const int* A, const int* x, int* y, int* z,
                           int n) {
    int i = threadIdx.x;
    if (i >= n) return;
    int s = 0;
    for (int j = 0; j <= i; ++j) s += A[i * n + j] * x[j];
    y[i] = s;
    int w = 0;
    for (unsigned int j = (unsigned int)n; j-- > (unsigned int)i;) {
        w = w * 3 + A[j * n + i];
    }
    z[i] = w;
}
