// Dot product of two small int vectors: each thread multiplies its elements
// (block-stride loop over n) and accumulates into out[0] with a global
// atomicAdd. dot([1,2,3],[4,5,6]) = 32; lane 3 contributes 0.
// qgpu: --grid 1 --block 4 a=1,2,3 b=4,5,6 out=zeros:1 n=3
__global__ void dot(const int* a, const int* b, int* out, int n) {
    int sum = 0;
    for (int i = threadIdx.x; i < n; i += blockDim.x) {
        sum += a[i] * b[i];
    }
    atomicAdd(out, sum);
}
