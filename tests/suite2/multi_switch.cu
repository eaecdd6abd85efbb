// Three switch statements per thread: an operation selector, a sparse
// switch on the result's low bits with fall-through, and a clamp mode.
// 16 threads, 4 pointer parameters.
// qgpu: --grid 1 --block 16
// qgpu: op=0,1,2,3,4,5,6,7,8,0,1,2,3,4,5,6
// qgpu: x=10,-10,7,100,-3,255,12,-64,5,2147483647,40000,-2147483648,33,9,-1,1000
// qgpu: y=3,3,-2,7,5,15,0,3,5,1,40000,1,33,4,-1,13
// qgpu: out=zeros:16
__global__ void multi_switch(const int* op, const int* x, const int* y, int* out) {
    int t = threadIdx.x;
    int a = x[t], b = y[t];
    int r;
    switch (op[t]) {
    case 0: r = a + b; break;
    case 1: r = a * b; break;
    case 2: r = a - b; break;
    case 3: r = a / (b == 0 ? 1 : b); break;
    case 4: r = a % (b == 0 ? 1 : b); break;
    case 5: r = a & b; break;
    case 6: r = a | (b << 4); break;
    case 7: r = a >> (b & 31); break;
    default: r = -a; break;
    }
    int tag = 0;
    switch (r & 7) {
    case 0:
        tag += 1;
    case 1:
        tag += 10;
        break;
    case 3:
    case 5:
        tag = 300;
        break;
    case 6:
        tag = -6;
    default:
        tag += 2;
    }
    int mode = t % 3;
    switch (mode) {
    case 0: r = min(max(r, -1000), 1000); break;
    case 1: r = r < 0 ? -r : r; break;
    case 2: r = (unsigned int)r > 65535u ? 65535 : r; break;
    }
    out[t] = r * 1000 + tag;
}
