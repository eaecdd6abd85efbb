// Over-size: 80 stores to 80 different words. A machine block holds at most two
// stores, so the program needs at least 40 ROM blocks; the ROM holds 32.
__global__ void too_many_blocks(int* out, int v) {
    out[0] = v;  out[1] = v;  out[2] = v;  out[3] = v;  out[4] = v;
    out[5] = v;  out[6] = v;  out[7] = v;  out[8] = v;  out[9] = v;
    out[10] = v;  out[11] = v;  out[12] = v;  out[13] = v;  out[14] = v;
    out[15] = v;  out[16] = v;  out[17] = v;  out[18] = v;  out[19] = v;
    out[20] = v;  out[21] = v;  out[22] = v;  out[23] = v;  out[24] = v;
    out[25] = v;  out[26] = v;  out[27] = v;  out[28] = v;  out[29] = v;
    out[30] = v;  out[31] = v;  out[32] = v;  out[33] = v;  out[34] = v;
    out[35] = v;  out[36] = v;  out[37] = v;  out[38] = v;  out[39] = v;
    out[40] = v;  out[41] = v;  out[42] = v;  out[43] = v;  out[44] = v;
    out[45] = v;  out[46] = v;  out[47] = v;  out[48] = v;  out[49] = v;
    out[50] = v;  out[51] = v;  out[52] = v;  out[53] = v;  out[54] = v;
    out[55] = v;  out[56] = v;  out[57] = v;  out[58] = v;  out[59] = v;
    out[60] = v;  out[61] = v;  out[62] = v;  out[63] = v;  out[64] = v;
    out[65] = v;  out[66] = v;  out[67] = v;  out[68] = v;  out[69] = v;
    out[70] = v;  out[71] = v;  out[72] = v;  out[73] = v;  out[74] = v;
    out[75] = v;  out[76] = v;  out[77] = v;  out[78] = v;  out[79] = v;
}
