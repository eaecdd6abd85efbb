// Global-memory atomics from 16 threads in 2 CTAs: a 4-bin histogram with
// atomicAdd (bin = v & 3, also for negatives), a total, signed
// atomicMax/atomicMin and an unsigned atomicMax (negatives are huge).
// qgpu: --grid 2 --block 8
// qgpu: in=5,-3,12,7,0,-8,33,2,9,-1,4,4,21,-17,6,11
// qgpu: hist=zeros:4 total=zeros:1 mx=-2147483648 mn=2147483647 umx=zeros:1
__global__ void atomics_global(const int* in, int* hist, int* total, int* mx,
                               int* mn, unsigned* umx) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int v = in[i];
    atomicAdd(&hist[v & 3], 1);
    atomicAdd(total, v);
    atomicMax(mx, v);
    atomicMin(mn, v);
    atomicMax(umx, (unsigned)v);
}
