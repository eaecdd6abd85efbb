// A small state machine over a per-thread stream of character codes:
// switch on the state, nested switch on the character class, counting
// numbers, words, their total length and the largest number. 8 threads.
// qgpu: --grid 1 --block 8 len=10
// qgpu: s=49,50,32,97,98,32,51,0,0,0,97,32,32,57,57,57,44,98,99,100,32,32,32,32,32,32,32,32,32,32,55,97,55,97,55,97,55,97,55,97,48,48,48,49,44,50,44,51,59,52,104,101,108,108,111,49,50,51,52,53,45,45,45,45,45,45,45,45,45,45,57,32,56,32,55,32,54,32,53,32,120
// qgpu: nums=zeros:8 words=zeros:8 chars=zeros:8 big=zeros:8
__global__ void lexer_states(const int* s, int* nums, int* words, int* chars, int* big, int len) {
    int t = threadIdx.x;
    const int* p = s + t * len;
    int state = 0, nn = 0, nw = 0, nc = 0, cur = 0, mx = -1;
    for (int i = 0; i <= len; ++i) {
        int ch = i < len ? p[i] : 32;
        int cls;
        if (ch >= 48 && ch <= 57) cls = 1;
        else if ((ch | 32) >= 97 && (ch | 32) <= 122) cls = 2;
        else if (ch == 0) cls = 3;
        else cls = 0;
        switch (state) {
        case 0:
            switch (cls) {
            case 1: state = 1; cur = ch - 48; nc++; break;
            case 2: state = 2; nc++; break;
            case 3: state = 3; break;
            default: break;
            }
            break;
        case 1:
            switch (cls) {
            case 1: cur = cur * 10 + (ch - 48); nc++; break;
            case 2: state = 2; nc++; break;
            default:
                nn++;
                mx = max(mx, cur);
                state = cls == 3 ? 3 : 0;
            }
            if (state == 2) { nn++; mx = max(mx, cur); }
            break;
        case 2:
            if (cls == 1 || cls == 2) nc++;
            else { nw++; state = cls == 3 ? 3 : 0; }
            break;
        default:
            break;
        }
        if (state == 3) break;
    }
    nums[t] = nn;
    words[t] = nw;
    chars[t] = nc;
    big[t] = mx;
}
