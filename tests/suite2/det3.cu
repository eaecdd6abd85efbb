// Determinant of a per-thread 3x3 integer matrix by cofactor expansion,
// plus its trace and the adjugate's (0,0) entry. 8 threads, 9 words each.
// qgpu: --grid 1 --block 8
// qgpu: m=1,0,0,0,1,0,0,0,1,2,3,1,4,1,5,9,2,6,1,2,3,4,5,6,7,8,9,-3,7,2,0,-1,4,5,6,-8,100,2,3,-4,100,6,7,8,100,1,1,1,1,2,4,1,3,9,0,0,5,0,7,0,11,0,0,-1000,1,2,3,1000,4,5,6,1000
// qgpu: det=zeros:8 tr=zeros:8
__global__ void det3(const int* m, int* det, int* tr) {
    int t = threadIdx.x;
    const int* a = m + 9 * t;
    int a00 = a[0], a01 = a[1], a02 = a[2];
    int a10 = a[3], a11 = a[4], a12 = a[5];
    int a20 = a[6], a21 = a[7], a22 = a[8];
    int c00 = a11 * a22 - a12 * a21;
    int c01 = a12 * a20 - a10 * a22;
    int c02 = a10 * a21 - a11 * a20;
    det[t] = a00 * c00 + a01 * c01 + a02 * c02;
    tr[t] = (a00 + a11 + a22) * 1000 + c00;
}
