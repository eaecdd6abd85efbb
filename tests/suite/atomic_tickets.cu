// atomicAdd tickets used order-independently: the old values are summed
// (atomically), their maximum taken, and each ticket marks its own slot;
// 2 CTAs of 5 threads (each CTA: warps of 4 and 1).
// qgpu: --grid 2 --block 5
// qgpu: ctr=zeros:1 sumold=zeros:1 maxold=zeros:1 slot=zeros:10 hits=zeros:2
#define STEP 3

__global__ void atomic_tickets(int* ctr, int* sumold, int* maxold, int* slot,
                               unsigned int* hits) {
    int old = atomicAdd(ctr, STEP);
    atomicAdd(sumold, old);
    atomicMax(maxold, old);
    slot[old / STEP] = 1;
    atomicAdd(&hits[old % 2], 1u);
}
