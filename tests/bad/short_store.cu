// Unsupported: 16-bit memory store (a short array viewed through an int buffer).
// (16-bit loads work: the machine loads the word and extracts the half.)
__global__ void short_store(const int* a, int* out) {
    int i = threadIdx.x;
    short* halves = (short*)out;
    halves[2 * i + 1] = (short)a[i];  // BAD: 16-bit store
}
