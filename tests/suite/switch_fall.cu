// Switch with fall-through chains and a default; 10 threads (warps of 4, 4
// and 2 lanes) take all the paths.
// qgpu: --grid 1 --block 10
// qgpu: op=0,1,2,3,7,4,9,-1,5,6 v=10,10,10,10,10,-3,255,8,1,2
// qgpu: out=zeros:10
__global__ void switch_fall(const int* op, const int* v, int* out) {
    int t = threadIdx.x;
    int acc = v[t];
    int o = op[t];
    switch (o) {
    case 0:
        acc += 1;
    case 1:
        acc *= 3;
        break;
    case 2:
        acc -= 7;
    case 3:
        acc ^= 0x55;
        break;
    case 4:
    case 5:
        acc = acc << 2;
    case 6:
        acc += 1000;
        break;
    case 7:
        acc = -acc;
        break;
    default:
        acc = 1000 * o + acc;
    }
    out[t] = acc;
}
