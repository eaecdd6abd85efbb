// Three switch statements inside one loop over a per-thread row of 6
// opcodes: the operation, a post-processing switch on the result's sign
// class, and a counter switch; 8 threads.
// qgpu: --grid 1 --block 8
// qgpu: ops=0,1,2,3,4,5,5,4,3,2,1,0,0,0,1,1,2,2,3,3,4,4,5,5,6,6,6,0,1,2,1,3,5,2,4,0,2,2,2,2,2,2,0,5,0,5,0,5
// qgpu: x=1,-2,3,-4,100,-1000,7,0
// qgpu: out=zeros:8 cnt=zeros:24
__global__ void switch3_loop(const int* ops, const int* x, int* out, int* cnt) {
    int t = threadIdx.x;
    int acc = x[t];
    int c0 = 0, c1 = 0, c2 = 0;
    for (int i = 0; i < 6; ++i) {
        int op = ops[6 * t + i];
        switch (op) {
        case 0: acc += 3; break;
        case 1: acc *= -2; break;
        case 2: acc ^= 0x5a; break;
        case 3: acc -= i * 7; break;
        case 4: acc >>= 1; break;
        case 5: acc = acc * acc % 1009; break;
        default: acc = ~acc;
        }
        int cls = acc > 0 ? 2 : (acc < 0 ? 0 : 1);
        switch (cls) {
        case 0: acc += 1000; break;
        case 1: acc = i; break;
        default:
            if (acc > 5000) acc -= 5000;
        }
        switch (acc & 3) {
        case 0: c0++; break;
        case 1:
        case 2: c1++; break;
        default: c2++;
        }
    }
    out[t] = acc;
    cnt[3 * t] = c0;
    cnt[3 * t + 1] = c1;
    cnt[3 * t + 2] = c2;
}
