// Nested data-dependent loops: each thread counts coprime pairs (i, j),
// 1 <= i < j <= n[t], with a Euclid gcd loop inside (three loop levels),
// and the sum of the gcds. 16 threads, n up to 40.
// qgpu: --grid 1 --block 16
// qgpu: n=1,2,3,5,8,10,12,16,20,24,28,30,32,36,38,40
// qgpu: cop=zeros:16 gs=zeros:16
__global__ void coprime_pairs(const int* n, int* cop, int* gs) {
    int t = threadIdx.x;
    int m = n[t];
    int c = 0, s = 0;
    for (int i = 1; i <= m; ++i) {
        for (int j = i + 1; j <= m; ++j) {
            int x = i, y = j;
            while (y) {
                int r = x % y;
                x = y;
                y = r;
            }
            c += x == 1;
            s += x;
        }
    }
    cop[t] = c;
    gs[t] = s;
}
