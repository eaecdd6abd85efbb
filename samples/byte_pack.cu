// Byte packing/unpacking with constant shifts and masks: pack four bytes
// little-endian into a word, byte-swap a word, split a word into its four
// bytes, and sign-extend its low byte.
// pw[2*i] = packed, pw[2*i+1] = byte-swapped words[i];
// parts[5*i .. 5*i+3] = bytes of words[i] (LSB first), parts[5*i+4] = sext.
// qgpu: --grid 1 --block 4
// qgpu: bytes=1,2,3,4,255,0,128,127,16,32,64,200,0,0,0,0
// qgpu: words=305419896,4294967295,2155905152,16711935
// qgpu: pw=zeros:8 parts=zeros:20
__global__ void byte_pack(const int* bytes, const unsigned* words,
                          unsigned* pw, int* parts) {
    int i = threadIdx.x;
    unsigned p = (unsigned)bytes[4 * i] | ((unsigned)bytes[4 * i + 1] << 8) |
                 ((unsigned)bytes[4 * i + 2] << 16) |
                 ((unsigned)bytes[4 * i + 3] << 24);
    pw[2 * i + 0] = p;
    unsigned w = words[i];
    pw[2 * i + 1] = (w >> 24) | ((w >> 8) & 0xFF00u) | ((w << 8) & 0xFF0000u) |
                    (w << 24);
    parts[5 * i + 0] = (int)(w & 0xFFu);
    parts[5 * i + 1] = (int)((w >> 8) & 0xFFu);
    parts[5 * i + 2] = (int)((w >> 16) & 0xFFu);
    parts[5 * i + 3] = (int)(w >> 24);
    parts[5 * i + 4] = ((int)(w << 24)) >> 24;
}
