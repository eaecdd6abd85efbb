// Bitwise CRC-32 (reflected, poly 0xEDB88320) over the 8 bytes of two words
// per thread, nested byte/bit loops with constant trip counts (no pragma).
// 8 threads.
// qgpu: --grid 1 --block 8
// qgpu: data=0,1,305419896,4294967295,1684234849,1145258561,7,2147483648,8,9,10,11,12,13,14,15
// qgpu: crc=zeros:8
__global__ void crc32_bitwise(const unsigned int* data, unsigned int* crc) {
    int t = threadIdx.x;
    unsigned int c = 0xffffffffu;
    for (int w = 0; w < 2; ++w) {
        unsigned int word = data[t + 8 * w];
        for (int b = 0; b < 4; ++b) {
            c ^= (word >> (8 * b)) & 0xffu;
            for (int k = 0; k < 8; ++k) c = (c >> 1) ^ (0xEDB88320u & (0u - (c & 1u)));
        }
    }
    crc[t] = ~c;
}
