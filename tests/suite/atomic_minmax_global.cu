// Global atomicMax/atomicMin on int and unsigned words (the same bits order
// differently), a per-CTA slot and launch-wide slots; 4 CTAs of 3 threads.
// qgpu: --grid 4 --block 3
// qgpu: in=5,-7,12,-2147483648,0,99,2147483647,-1,3,40,-40,8
// qgpu: smm=-5,5 umm=2147483648,2147483648 cmax=-100,-100,-100,-100
// qgpu: orx=0,0,4294967295
__global__ void atomic_minmax_global(const int* in, int* smm,
                                     unsigned int* umm, int* cmax,
                                     unsigned int* orx) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int v = in[i];
    atomicMin(&smm[0], v);
    atomicMax(&smm[1], v);
    atomicMin(&umm[0], (unsigned int)v);
    atomicMax(&umm[1], (unsigned int)v);
    atomicMax(&cmax[blockIdx.x], v);
    atomicOr(&orx[0], 1u << (i & 31));
    atomicXor(&orx[1], (unsigned int)v);
    atomicAnd(&orx[2], i == 0 ? 0xffffffffu : (unsigned int)v | 0x10000u);
}
