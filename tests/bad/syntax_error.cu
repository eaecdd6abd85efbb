// Bad input: a C++ syntax error. The compiler's diagnostic must come back as
// "syntax_error.cu:5: error: ..." (the line marked BAD).
__global__ void syntax_error(int* out) {
    int i = threadIdx.x;
    out[i] = (i * 2 + ;  // BAD: expression missing, ')' missing
}
