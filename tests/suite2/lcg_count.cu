// Linear congruential generator per thread (wrapping unsigned multiply-add),
// a parameter number of draws, counting draws whose top byte is below the
// thread's threshold; counts are combined with atomicAdd and the last state
// maximum with atomicMax. 16 threads.
// qgpu: --grid 1 --block 16 draws=25
// qgpu: seed=1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16
// qgpu: cnt=zeros:16 total=zeros:1 smax=zeros:1
__global__ void lcg_count(const unsigned int* seed, int* cnt, int* total, unsigned int* smax,
                          int draws) {
    int t = threadIdx.x;
    unsigned int s = seed[t] * 2654435761u;
    unsigned int thr = 16u * (unsigned int)(t + 1);
    int c = 0;
    for (int i = 0; i < draws; ++i) {
        s = s * 1664525u + 1013904223u;
        if ((s >> 24) < thr) c++;
    }
    cnt[t] = c;
    atomicAdd(total, c);
    atomicMax(smax, s);
}
