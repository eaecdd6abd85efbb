// Shared-memory atomics per CTA (add, max, min, or, and, xor, inc) between
// barriers, results copied out per CTA; 2 CTAs of 6 threads.
// qgpu: --grid 2 --block 6
// qgpu: in=3,-9,27,-81,5,0,100,200,-300,7,7,-2147483647
// qgpu: out=zeros:14
__global__ void atomic_shared_ops(const int* in, int* out) {
    __shared__ int s_add, s_max, s_min;
    __shared__ unsigned int s_or, s_and, s_xor, s_inc;
    int t = threadIdx.x;
    if (t == 0) {
        s_add = 0;
        s_max = -2147483647;
        s_min = 2147483647;
        s_or = 0u;
        s_and = 0xffffffffu;
        s_xor = 0u;
        s_inc = 0u;
    }
    __syncthreads();
    int v = in[blockIdx.x * blockDim.x + t];
    atomicAdd(&s_add, v);
    atomicMax(&s_max, v);
    atomicMin(&s_min, v);
    atomicOr(&s_or, (unsigned int)v);
    atomicAnd(&s_and, (unsigned int)v);
    atomicXor(&s_xor, (unsigned int)v * 2654435761u);
    atomicInc(&s_inc, 100u);
    __syncthreads();
    if (t == 0) {
        int* o = out + 7 * blockIdx.x;
        o[0] = s_add;
        o[1] = s_max;
        o[2] = s_min;
        o[3] = (int)s_or;
        o[4] = (int)s_and;
        o[5] = (int)s_xor;
        o[6] = (int)s_inc;
    }
}
