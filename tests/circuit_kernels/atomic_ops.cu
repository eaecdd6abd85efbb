// Atomics for the circuit tests: 2 CTAs of 6 threads (4 warps, two half full). Every lane of a
// warp hits the same word (the lanes apply in lane order: tickets), a shared counter per CTA,
// and each 32-bit atomic op the 3-instruction machine can run as a read-modify-write.
// qgpu: --grid 2 --block 6 in=5,-7,11,300,2,9,40,-1,77,6,1000,-3 out=zeros:24 acc=0,0,-1,0,100,7,0,0
__global__ void atomic_ops(const int* in, int* out, int* acc) {
    __shared__ int s;
    int t = threadIdx.x, c = blockIdx.x;
    int i = c * 6 + t;
    int v = in[i];
    if (t == 0) s = 0;
    __syncthreads();
    out[i] = atomicAdd(&acc[0], v);              // every thread: the old values are tickets
    out[12 + i] = atomicAdd(&s, 1) * 100 + atomicCAS(&acc[1], t, t + 1);
    atomicMax(&acc[3], v);
    atomicMin(&acc[4], v);
    atomicAnd(&acc[2], ~(1 << t));
    atomicOr(&acc[5], 1 << (t + 8));
    atomicXor(&acc[6], v);
    atomicExch(&acc[7], i);
}
