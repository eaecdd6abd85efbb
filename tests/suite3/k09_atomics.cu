// qgpu: --grid 2 --block 8
// qgpu: a=3,-7,0,100,-2147483648,5,-1,42,9,-9,13,-13,2147483647,0,1,-1
// qgpu: acc=0,0,-2147483648,2147483647,0,-1,0,0
__global__ void k09_atomics(const int* a, int* acc) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int v = a[i];
    int old = atomicAdd(&acc[0], v);
    atomicAdd(&acc[1], (old & 0) + 1);
    atomicMax(&acc[2], v);
    atomicMin(&acc[3], v);
    atomicMax((unsigned*)&acc[4], (unsigned)v);
    atomicMin((unsigned*)&acc[5], (unsigned)v | 1u);
    atomicOr(&acc[6], 1 << (i & 31));
    atomicXor(&acc[7], v);
}
