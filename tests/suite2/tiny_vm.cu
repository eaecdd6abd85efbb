// A tiny interpreter: every thread runs the same 12-instruction program on
// its own accumulator; a switch on the opcode inside a loop, with a
// conditional skip, a halt (break) and a backward jump bounded by a counter.
// 16 threads.
// qgpu: --grid 1 --block 16
// qgpu: prog=0,1,2,5,3,4,6,7,1,8,2,9
// qgpu: imm=3,5,255,0,2,1,0,2,-7,0,1,0
// qgpu: x=0,1,2,3,-1,-2,-3,100,-100,7,8,9,1000,-1000,12345,-54321
// qgpu: out=zeros:16 nsteps=zeros:16
__global__ void tiny_vm(const int* prog, const int* imm, const int* x, int* out, int* nsteps) {
    int t = threadIdx.x;
    int acc = x[t];
    int pc = 0, steps = 0, loops = 0;
    while (pc < 12 && steps < 40) {
        int op = prog[pc];
        int k = imm[pc];
        steps++;
        pc++;
        switch (op) {
        case 0: acc += k; break;
        case 1: acc *= k; break;
        case 2: acc ^= k; break;
        case 3: acc <<= k; break;
        case 4: acc >>= k; break;
        case 5: if (acc < 0) pc++; break;
        case 6: acc = acc % 1000; break;
        case 7:
            if (loops < k && (acc & 1)) { loops++; pc = 0; }
            break;
        case 8: acc = -acc; break;
        default: pc = 100; break;
        }
    }
    out[t] = acc;
    nsteps[t] = steps;
}
