// A bytecode interpreter with 14 opcodes (switch inside a loop), a
// two-register machine (acc, aux), conditional jumps bounded by a step
// limit. Each thread runs the same 12-word program on its own input.
// 16 threads.
// qgpu: --grid 1 --block 16
// qgpu: prog=0,10,1,11,2,12,3,9,13,4,5,6
// qgpu: imm=7,0,3,2,5,1,4,0,0,9,3,0
// qgpu: x=0,1,2,3,-1,-2,-3,100,-100,7,8,9,1000,-1000,12345,-54321
// qgpu: out=zeros:16 aux=zeros:16
__global__ void vm14(const int* prog, const int* imm, const int* x, int* out, int* aux) {
    int t = threadIdx.x;
    int acc = x[t], b = t;
    int pc = 0, steps = 0;
    while (pc >= 0 && pc < 12 && steps < 48) {
        int op = prog[pc], k = imm[pc];
        steps++;
        pc++;
        switch (op) {
        case 0: acc += k; break;
        case 1: acc -= k * b; break;
        case 2: acc *= k; break;
        case 3: acc /= (k ? k : 1); break;
        case 4: acc %= (k ? k : 1); break;
        case 5: acc = (acc << k) | ((unsigned int)acc >> (32 - k)); break;
        case 6: acc = max(acc, b); break;
        case 7: acc = min(acc, b); break;
        case 8: acc = abs(acc); break;
        case 9: { int tmp = acc; acc = b; b = tmp; } break;
        case 10: b += acc & 15; break;
        case 11: if (acc > 0) pc += k; break;
        case 12: if ((acc & 1) && steps < 30) pc = k; break;
        case 13: b = __popc(acc) + __clz(b); break;
        default: pc = -1; break;
        }
    }
    out[t] = acc;
    aux[t] = b * 100 + steps;
}
