// Ternary selects: sign(x) with a nested ternary, a Collatz step chosen by
// parity (odd negatives have x % 2 == -1), and |x - t| for a scalar t.
// qgpu: --grid 1 --block 8 x=-9,-2,0,1,6,15,-2147483647,1000 t=5 out=zeros:24
__global__ void select_ternary(const int* x, int t, int* out) {
    int i = threadIdx.x;
    int v = x[i];
    out[3 * i + 0] = v > 0 ? 1 : (v < 0 ? -1 : 0);
    out[3 * i + 1] = (v % 2 != 0) ? 3 * v + 1 : v / 2;
    out[3 * i + 2] = v > t ? v - t : t - v;
}
