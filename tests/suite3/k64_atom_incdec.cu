// qgpu: --grid 1 --block 4
// qgpu: w=10,10,0,5 r=zeros:8
__global__ void k64_atom_incdec(unsigned* w, unsigned* r) {
    int t = threadIdx.x;
    if (t == 0) { r[0] = atomicInc(&w[0], 3u); r[1] = atomicDec(&w[1], 3u); r[2] = atomicDec(&w[2], 0u); r[3] = atomicInc(&w[3], 0u); }
    __syncthreads();
    if (t == 1) { r[4] = atomicInc(&w[0], 0xffffffffu); r[5] = atomicDec(&w[1], 0u); r[6] = atomicCAS(&w[2], 0u, 77u); r[7] = atomicCAS(&w[3], 1u, 88u); }
}
