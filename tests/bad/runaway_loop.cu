// Run-time fault: a loop that never ends. Its body is an atomic (an observable
// side effect in C++), so neither nvcc nor clang may delete the loop; the
// interpreter must stop it at its step limit (4096 EXEC steps by default).
// qgpu: --grid 1 --block 4 a=zeros:4
__global__ void runaway_loop(int* a) {
    int i = threadIdx.x;
    for (;;) {  // BAD: never exits
        atomicAdd(&a[i], 1);
    }
}
