// qgpu: --grid 1 --block 4
// qgpu: a=3,0,7,5 out=zeros:4
__global__ void k27_localarr(const int* a, int* out) {
    int t = threadIdx.x;
    int buf[6];
    for (int i = 0; i < 6; ++i) buf[i] = (i + 1) * (t + 2);
    int k = a[t] % 6;
    buf[k] += 100;
    buf[(k + 3) % 6] = buf[k] * 2;
    int s = 0;
    for (int i = 0; i < 6; ++i) s = s * 3 + buf[i];
    out[t] = s;
}
