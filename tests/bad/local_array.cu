// Unsupported: a per-thread array indexed by a run-time value lives in local memory.
__global__ void local_array(const int* a, int* out, int n) {
    int i = threadIdx.x;
    int tmp[8];  // BAD: local (stack) array
    for (int k = 0; k < 8; k++) tmp[k] = a[k] * (i + k);  // BAD: stores into the local array
    out[i] = tmp[(a[i] + n) & 7];  // BAD: dynamic index into it
}
