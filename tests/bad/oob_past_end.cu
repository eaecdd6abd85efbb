// Run-time fault: a global write past the end of the only array.
// With --grid 2 --block 8 and a=zeros:12, thread g = blockIdx.x*8 + threadIdx.x
// writes a[g]; g = 12..15 are out of bounds. They all live in CTA 1, warp 3
// (CTA 0 = warps 0,1; CTA 1 = warps 2,3; 4 lanes each); the first is lane 0
// (threadIdx.x 4, g = 12), at byte address 12 * 4 = 48 = 0x30.
// qgpu: --grid 2 --block 8 a=zeros:12
__global__ void oob_past_end(int* a) {
    int g = blockIdx.x * blockDim.x + threadIdx.x;
    a[g] = g;  // BAD: g >= 12 is past the end
}
