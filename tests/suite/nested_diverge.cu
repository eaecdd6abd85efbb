// Three levels of nested if/else with different conditions per lane across
// a full 16-thread CTA; every leaf writes a distinct formula.
// qgpu: --grid 1 --block 16
// qgpu: in=5,-5,50,-50,0,7,-7,100,-100,3,33,-33,64,-64,1,-1
// qgpu: out=zeros:16
__global__ void nested_diverge(const int* in, int* out) {
    int t = threadIdx.x;
    int x = in[t];
    int r;
    if (x > 0) {
        if (x & 1) {
            if (x > 10) r = x * 2;
            else r = x + 1000;
        } else {
            if (t < 8) r = x - t;
            else r = x << 3;
        }
    } else if (x < 0) {
        if (x < -40) {
            r = (t & 1) ? -x : x / 3;
        } else {
            if ((t & 3) == 1) r = x * x;
            else r = x - 1;
        }
    } else {
        r = -999;
    }
    out[t] = r + t;
}
