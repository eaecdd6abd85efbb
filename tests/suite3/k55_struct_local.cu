// qgpu: --grid 1 --block 2
// qgpu: a=5,9 out=zeros:6
struct P { int x, y, z; };
__global__ void k55_struct_local(const int* a, int* out) {
    int t = threadIdx.x;
    P ps[3];
    for (int i = 0; i < 3; ++i) { ps[i].x = a[t] + i; ps[i].y = a[t] * i; ps[i].z = i - a[t]; }
    int j = a[t] % 3;
    P tmp = ps[j]; ps[j] = ps[2 - j]; ps[2 - j] = tmp;
    int s = 0;
    for (int i = 0; i < 3; ++i) s = s * 31 + ps[i].x - ps[i].y * ps[i].z;
    out[t * 3] = s; out[t * 3 + 1] = ps[j].y; out[t * 3 + 2] = ps[1].z;
}
