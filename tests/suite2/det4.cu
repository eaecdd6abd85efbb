// Determinant of a per-thread 4x4 integer matrix with the 2x2-minor
// (Laplace) expansion over the first two rows: all 16 entries loaded up
// front into scalars. 4 threads, 16 words each.
// qgpu: --grid 1 --block 4
// qgpu: m=1,0,0,0,0,2,0,0,0,0,3,0,0,0,0,4,2,3,1,5,4,1,5,9,2,6,5,3,5,8,9,7,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,-3,7,2,0,-1,4,5,6,-8,1,2,3,4,-4,0,1
// qgpu: det=zeros:4
__global__ void det4(const int* m, int* det) {
    int t = threadIdx.x;
    const int* a = m + 16 * t;
    int a0 = a[0], a1 = a[1], a2 = a[2], a3 = a[3];
    int b0 = a[4], b1 = a[5], b2 = a[6], b3 = a[7];
    int c0 = a[8], c1 = a[9], c2 = a[10], c3 = a[11];
    int d0 = a[12], d1 = a[13], d2 = a[14], d3 = a[15];
    int s0 = a0 * b1 - b0 * a1;
    int s1 = a0 * b2 - b0 * a2;
    int s2 = a0 * b3 - b0 * a3;
    int s3 = a1 * b2 - b1 * a2;
    int s4 = a1 * b3 - b1 * a3;
    int s5 = a2 * b3 - b2 * a3;
    int k5 = c2 * d3 - d2 * c3;
    int k4 = c1 * d3 - d1 * c3;
    int k3 = c1 * d2 - d1 * c2;
    int k2 = c0 * d3 - d0 * c3;
    int k1 = c0 * d2 - d0 * c2;
    int k0 = c0 * d1 - d0 * c1;
    det[t] = s0 * k5 - s1 * k4 + s2 * k3 + s3 * k2 - s4 * k1 + s5 * k0;
}
