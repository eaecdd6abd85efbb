// Bitwise CRC-32 over a per-thread, data-dependent number of bytes taken
// from a shared byte stream (byte i = bytes of word i/4), inner bit loop of
// 8 with no pragma. 8 threads.
// qgpu: --grid 1 --block 8
// qgpu: data=1684234849,1145258561,305419896,4294967295,0,16909060,2155905152,1936287828
// qgpu: len=0,1,3,4,9,16,31,32 crc=zeros:8
__global__ void crc32_varlen(const unsigned int* data, const int* len, unsigned int* crc) {
    int t = threadIdx.x;
    unsigned int c = 0xffffffffu;
    int n = len[t];
    for (int i = 0; i < n; ++i) {
        unsigned int byte = (data[i >> 2] >> (8 * (i & 3))) & 0xffu;
        c ^= byte;
        for (int k = 0; k < 8; ++k) {
            if (c & 1u) c = (c >> 1) ^ 0xEDB88320u;
            else c >>= 1;
        }
    }
    crc[t] = ~c;
}
