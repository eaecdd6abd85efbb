// Three levels of nested if/else: lanes of one warp take different paths
// and must reconverge before the store.
// qgpu: --grid 1 --block 8 in=3,4,15,100,-5,-12,-13,0 out=zeros:8
__global__ void divergence_nested(const int* in, int* out) {
    int i = threadIdx.x;
    int x = in[i];
    int r;
    if (x >= 0) {
        if (x < 10) {
            if (x & 1) {
                r = x * 10;
            } else {
                r = x + 100;
            }
        } else {
            r = x - 10;
            if (r > 50) {
                r = 50;
            }
        }
    } else {
        if (x > -10) {
            r = -x;
        } else {
            if ((-x) % 3 == 0) {
                r = 333;
            } else {
                r = -1;
            }
        }
    }
    out[i] = r;
}
