// Unsupported: 8-bit memory access (a char array viewed through an int buffer).
__global__ void char_load(const int* a, int* out) {
    int i = threadIdx.x;
    const signed char* bytes = (const signed char*)a;
    out[i] = bytes[3 * i + 1];  // BAD: 8-bit load
}
