// Unsupported: 16-bit memory access (a short array viewed through an int buffer).
__global__ void short_load(const int* a, int* out) {
    int i = threadIdx.x;
    const short* halves = (const short*)a;
    out[i] = halves[2 * i + 1];  // BAD: 16-bit load
}
