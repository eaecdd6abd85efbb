// Hillis-Steele inclusive and exclusive scan of 16 values with a double
// buffer in shared memory (barrier inside the loop); the total is written
// by the last thread. 16 threads.
// qgpu: --grid 1 --block 16
// qgpu: in=3,1,-4,1,5,-9,2,6,-5,3,5,-8,9,7,-9,3
// qgpu: inc=zeros:16 exc=zeros:16 tot=zeros:1
__global__ void scan_hs16(const int* in, int* inc, int* exc, int* tot) {
    __shared__ int buf[2][16];
    int t = threadIdx.x;
    int cur = 0;
    buf[0][t] = in[t];
    __syncthreads();
    for (int off = 1; off < 16; off *= 2) {
        int v = buf[cur][t];
        if (t >= off) v += buf[cur][t - off];
        buf[1 - cur][t] = v;
        cur = 1 - cur;
        __syncthreads();
    }
    int s = buf[cur][t];
    inc[t] = s;
    exc[t] = s - in[t];
    if (t == blockDim.x - 1) tot[0] = s;
}
