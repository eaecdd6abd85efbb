// qgpu: --grid 1 --block 8
// qgpu: a=3,5,2,7,1,1,2,3 prod=1 cnt=zeros:2 ex=zeros:1 got=zeros:8
__global__ void k10_atomic_cas(const int* a, int* prod, unsigned* cnt, int* ex, int* got) {
    int t = threadIdx.x;
    int old = *prod, assumed;
    do {
        assumed = old;
        old = atomicCAS(prod, assumed, assumed * a[t]);
    } while (old != assumed);
    atomicInc(&cnt[0], 5u);
    atomicDec(&cnt[1], 2u);
    got[t] = atomicExch(ex, t + 1);
}
