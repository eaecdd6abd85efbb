// Unsigned vs signed comparison and right shifts of the same bit patterns:
// 0x80000000 is the largest unsigned of the set but the smallest signed.
// Also an unsigned absolute difference chosen with a ternary.
// res[3*i .. 3*i+2] = (a < b unsigned), (a < b signed), (int)a >> 28;
// ures[2*i] = |a - b| (unsigned), ures[2*i+1] = a >> 28 (logical).
// qgpu: --grid 1 --block 4
// qgpu: a=1,2147483648,4294967295,5 b=4294967295,1,4294967294,5
// qgpu: res=zeros:12 ures=zeros:8
__global__ void unsigned_cmp(const unsigned* a, const unsigned* b, int* res,
                             unsigned* ures) {
    int i = threadIdx.x;
    unsigned x = a[i];
    unsigned y = b[i];
    res[3 * i + 0] = x < y ? 1 : 0;
    res[3 * i + 1] = (int)x < (int)y ? 1 : 0;
    res[3 * i + 2] = (int)x >> 28;
    ures[2 * i + 0] = x >= y ? x - y : y - x;
    ures[2 * i + 1] = x >> 28;
}
