// Over-size: 40 stores to 40 different words. A machine block holds at most one
// store, so the program needs at least 40 ROM blocks; the ROM holds 32.
__global__ void too_many_blocks(int* out, int v) {
    out[0] = v;   out[1] = v;   out[2] = v;   out[3] = v;   out[4] = v;
    out[5] = v;   out[6] = v;   out[7] = v;   out[8] = v;   out[9] = v;
    out[10] = v;  out[11] = v;  out[12] = v;  out[13] = v;  out[14] = v;
    out[15] = v;  out[16] = v;  out[17] = v;  out[18] = v;  out[19] = v;
    out[20] = v;  out[21] = v;  out[22] = v;  out[23] = v;  out[24] = v;
    out[25] = v;  out[26] = v;  out[27] = v;  out[28] = v;  out[29] = v;
    out[30] = v;  out[31] = v;  out[32] = v;  out[33] = v;  out[34] = v;
    out[35] = v;  out[36] = v;  out[37] = v;  out[38] = v;  out[39] = v;
}
