// One value from a vector: op 0 sums, 1 takes the minimum, 2 the maximum, 3 counts the
// elements equal to x. qgpu chat's `sum(...)`, `min(...)`, `max(...)`, `count(v, x)`.
// Every thread folds its elements (block-stride loop) into out[0] with one global atomic;
// the host starts out[0] at the operation's identity (0, INT_MAX, INT_MIN, 0).
// qgpu: --grid 1 --block 4 in=12,7,30,5,7 out=2147483647 n=5 op=1 x=0
__global__ void reduce_op(const int* in, int* out, int n, int op, int x) {
    for (int i = threadIdx.x; i < n; i += blockDim.x) {
        int v = in[i];
        if (op == 0) atomicAdd(out, v);
        if (op == 1) atomicMin(out, v);
        if (op == 2) atomicMax(out, v);
        if (op == 3) atomicAdd(out, v == x ? 1 : 0);
    }
}
