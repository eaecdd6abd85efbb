// A dense switch (cases 0..9, each different) that a compiler may lower to
// a jump table or a branch tree; 8 threads, two per case on some cases.
// qgpu: --grid 1 --block 8 sel=0,3,5,9,2,7,11,8 x=12,12,12,12,-12,-12,-12,-12
// qgpu: out=zeros:8
__device__ int pick(int s, int x) {
    switch (s) {
    case 0: return x + 1;
    case 1: return x * 7;
    case 2: return x - 100;
    case 3: return x * x;
    case 4: return x >> 1;
    case 5: return x ^ 0xff;
    case 6: return ~x;
    case 7: return x / 5;
    case 8: return x % 5;
    case 9: return -x * 3;
    default: return 42;
    }
}

__global__ void switch_dense(const int* sel, const int* x, int* out) {
    int t = threadIdx.x;
    out[t] = pick(sel[t], x[t]);
}
