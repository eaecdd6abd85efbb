// A switch on a per-thread opcode (divergent multiway branch) with a
// fall-through case and a default: a tiny per-lane ALU.
// qgpu: --grid 1 --block 8
// qgpu: op=2,0,7,3,4,8,42,5 a=6,10,1,-17,-17,12,5,3 b=7,-20,2,5,5,10,5,4
// qgpu: out=zeros:8
__global__ void switch_case(const int* op, const int* a, const int* b,
                            int* out) {
    int i = threadIdx.x;
    int x = a[i];
    int y = b[i];
    int r;
    switch (op[i]) {
        case 0: r = x + y; break;
        case 1: r = x - y; break;
        case 2: r = x * y; break;
        case 3: r = x / y; break;
        case 4: r = x % y; break;
        case 5: r = x << (y & 31); break;
        case 7: x += 100;  // fall through
        case 8: r = x ^ y; break;
        default: r = -1; break;
    }
    out[i] = r;
}
