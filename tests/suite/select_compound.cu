// Ternaries and compound conditions: a && b || c, short-circuit guards that
// protect an out-of-range load (threads 5..7 must not read in[i]).
// qgpu: --grid 1 --block 8 n=5 in=4,-3,0,9,-8 k=0,1,2,3,4,5,6,7
// qgpu: out=zeros:16
__global__ void select_compound(const int* in, const int* k, int* out,
                                int n) {
    int i = threadIdx.x;
    int c = k[i];
    int r = 0;
    if (i < n && in[i] > 0 || c == 6) {
        r = 100;
    }
    if (!(c > 2) && (i < n) && in[i] != 0) {
        r += in[i] < 0 ? -1 : 1;
    }
    int sel = (c & 1) ? ((c & 2) ? 3 : 1) : ((c > 4) ? 4 : 0);
    out[2 * i] = r;
    out[2 * i + 1] = (i < n ? in[i] : 1000) * sel + ((c >= 3 && c <= 5) ? c : -c);
}
