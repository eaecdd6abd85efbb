// qgpu: --grid 1 --block 16
// qgpu: a=1,0,1,1,0,0,1,0,1,1,1,1,0,1,0,1 pos=zeros:16 ln=zeros:16
__global__ void k62_lanemask_asm(const int* a, int* pos, unsigned* ln) {
    int t = threadIdx.x;
    unsigned lt, lid;
    asm("mov.u32 %0, %%lanemask_lt;" : "=r"(lt));
    asm("mov.u32 %0, %%laneid;" : "=r"(lid));
    unsigned b = __ballot_sync(0xffffffffu, a[t] != 0);
    pos[t] = a[t] ? __popc(b & lt) : -1;
    ln[t] = lid * 100 + __shfl_sync(0xffffffffu, (int)lid, (t & ~3) | 2);
}
