// Over-size: 30 loaded values stay alive across a loop that rotates them, plus
// the loop counter, so at least 31 values are live at once; a lane has 15
// registers. Spilling the rest to local memory adds a load or store at every
// use, and the spilled program no longer fits in the ROM (60 blocks).
__global__ void too_many_regs(const int* a, int* out, int n) {
    int v0 = a[0], v1 = a[1], v2 = a[2], v3 = a[3], v4 = a[4];
    int v5 = a[5], v6 = a[6], v7 = a[7], v8 = a[8], v9 = a[9];
    int v10 = a[10], v11 = a[11], v12 = a[12], v13 = a[13], v14 = a[14];
    int v15 = a[15], v16 = a[16], v17 = a[17], v18 = a[18], v19 = a[19];
    int v20 = a[20], v21 = a[21], v22 = a[22], v23 = a[23], v24 = a[24];
    int v25 = a[25], v26 = a[26], v27 = a[27], v28 = a[28], v29 = a[29];
#pragma unroll 1
    for (int k = 0; k < n; k++) {  // BAD: everything below is live around this loop
        int t = v0;
        v0 = v1 ^ k;  v1 = v2 + k;  v2 = v3 * 3;  v3 = v4 - k;  v4 = v5 ^ v0;
        v5 = v6 + 1;  v6 = v7 ^ k;  v7 = v8 + v1;  v8 = v9 * 5;  v9 = v10 - 1;
        v10 = v11 ^ 7;  v11 = v12 + k;  v12 = v13 * 9;  v13 = v14 ^ v2;  v14 = v15 + 3;
        v15 = v16 ^ k;  v16 = v17 + 11;  v17 = v18 * 13;  v18 = v19 ^ v3;  v19 = v20 ^ k;
        v20 = v21 + k;  v21 = v22 * 3;  v22 = v23 - k;  v23 = v24 ^ v0;  v24 = v25 + 1;
        v25 = v26 ^ k;  v26 = v27 + v1;  v27 = v28 * 5;  v28 = v29 - 1;  v29 = t + k;
    }
    int i = threadIdx.x;
    out[i] = v0 + v1 + v2 + v3 + v4 + v5 + v6 + v7 + v8 + v9 + v10 + v11 + v12 + v13 + v14 + v15 + v16 + v17 + v18 + v19 + v20 + v21 + v22 + v23 + v24 + v25 + v26 + v27 + v28 + v29;
}
