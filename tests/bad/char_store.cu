// Unsupported: 8-bit memory store (a char array viewed through an int buffer).
// (8-bit loads work: the machine loads the word and extracts the byte.)
__global__ void char_store(const int* a, int* out) {
    int i = threadIdx.x;
    signed char* bytes = (signed char*)out;
    bytes[3 * i + 1] = (signed char)a[i];  // BAD: 8-bit store
}
