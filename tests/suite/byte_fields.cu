// Byte and halfword fields: a loop summing the unsigned bytes, signed-char
// and short casts (sign extension), repacking in reverse order.
// qgpu: --grid 1 --block 4
// qgpu: in=305419896,4294967295,2155905152,16744447
// qgpu: out=zeros:24
__global__ void byte_fields(const unsigned int* in, int* out) {
    int t = threadIdx.x;
    unsigned int w = in[t];
    int sum = 0, ssum = 0;
    unsigned int rev = 0;
    for (int k = 0; k < 4; ++k) {
        unsigned int byte = (w >> (8 * k)) & 0xffu;
        sum += (int)byte;
        ssum += (signed char)(w >> (8 * k));
        rev = (rev << 8) | byte;
    }
    out[6 * t + 0] = sum;
    out[6 * t + 1] = ssum;
    out[6 * t + 2] = (int)rev;
    out[6 * t + 3] = (short)(w & 0xffffu);
    out[6 * t + 4] = (short)(w >> 16) + (unsigned short)w;
    out[6 * t + 5] = (int)(unsigned char)(w >> 12);
}
