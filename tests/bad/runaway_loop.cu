// Run-time fault: a loop that never ends (it has a side effect, so the compiler
// keeps it). The interpreter must stop it at its step limit.
// qgpu: --grid 1 --block 4 a=zeros:4
__global__ void runaway_loop(int* a) {
    int i = threadIdx.x;
    for (;;) {  // BAD: never exits
        a[i] += 1;
    }
}
