// qgpu: --grid 1 --block 4
// qgpu: a=3,7,-2,11 out=zeros:4
__global__ void k49_pressure(const int* a, int* out) {
    int t = threadIdx.x;
    int x = a[t];
    int v0 = x * 3 + 1, v1 = x ^ 0x55, v2 = x * x, v3 = x - 17, v4 = x << 2, v5 = x * 7 - t;
    int v6 = v0 + v1, v7 = v2 ^ v3, v8 = v4 * v5, v9 = v0 * v2, v10 = v1 - v3, v11 = v5 + t * 9;
    int v12 = v6 * v7 + v8, v13 = v9 ^ v10, v14 = v11 * 3 + v0;
    int acc = 0;
    for (int i = 0; i < 5; ++i) {
        acc += v0 * i + v1 - v2 + v3 * (i & 1) + v4 + v5 * i + v6 - v7 + v8 + v9 * i + v10 + v11 + v12 * i + v13 + v14;
        v0 = v0 * 3 + v14; v14 = v14 ^ v13; v13 += v12; v12 -= v1; v1 = v1 * 5 + i;
    }
    out[t] = acc ^ v0 ^ v1 ^ v2 ^ v3 ^ v4 ^ v5 ^ v6 ^ v7 ^ v8 ^ v9 ^ v10 ^ v11 ^ v12 ^ v13 ^ v14;
}
