// Over-size: each thread's stack array (local memory) takes 40 words; with 4
// threads that is 160 words of local memory, more than the machine's 126.
// qgpu: --grid 1 --block 4 a=1,2,3,4 out=zeros:4
__global__ void local_too_big(const int* a, int* out) {
    int i = threadIdx.x;
    int tmp[40];  // BAD: 40 words per thread
    for (int k = 0; k < 40; k++) tmp[k] = a[i] * k;
    out[i] = tmp[(a[i] * 7) % 40] + tmp[a[3 - i] % 40];
}
