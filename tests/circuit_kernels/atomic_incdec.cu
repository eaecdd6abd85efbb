// atomicInc / atomicDec for the circuit tests: their read-modify-writes need more instructions
// than a block holds, so each runs as a serial block that goes on in the one below it
// (docs/machine.md, "Atomics"). 2 CTAs of 6 threads (4 warps, two half full); every thread hits
// the same two words. The limits make both wrap within the launch; lim[2] is a limit below the
// starting value (inc then restarts at 0, dec reloads the limit).
// qgpu: --grid 2 --block 6 lim=4,2,3 cnt=1,0,9,9 out=zeros:48
__global__ void atomic_incdec(const unsigned* lim, unsigned* cnt, unsigned* out) {
    unsigned i = blockIdx.x * 6 + threadIdx.x;
    out[i] = atomicInc(&cnt[0], lim[0]);
    out[12 + i] = atomicDec(&cnt[1], lim[1]);
    if (i & 1) out[24 + i] = atomicInc(&cnt[2], lim[2]);  // a guarded one: odd threads only
    out[36 + i] = atomicDec(&cnt[3], lim[2]);
}
