// qgpu: --grid two --block 4 out=zeros:4
// Bad input: the '// qgpu:' header on line 1 gives a --grid that is not an integer.
__global__ void bad_header(int* out) {
    out[threadIdx.x] = 1;
}
