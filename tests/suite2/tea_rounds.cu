// TEA block cipher: 32 rounds of shifts, adds and xors on two words with a
// 4-word key (plain constant-trip loop, no pragma), then one decryption
// check on thread 0's block. 8 threads.
// qgpu: --grid 1 --block 8
// qgpu: v0=0,1,305419896,4294967295,2147483648,7,123456789,3735928559
// qgpu: v1=0,2,2596069104,4294967295,1,8,987654321,3405691582
// qgpu: key=19088743,2309737967,4275878552,1985229328
// qgpu: e0=zeros:8 e1=zeros:8 ok=zeros:1
__global__ void tea_rounds(const unsigned int* v0, const unsigned int* v1, const unsigned int* key,
                           unsigned int* e0, unsigned int* e1, int* ok) {
    int t = threadIdx.x;
    unsigned int y = v0[t], z = v1[t], sum = 0u;
    unsigned int k0 = key[0], k1 = key[1], k2 = key[2], k3 = key[3];
    const unsigned int delta = 0x9E3779B9u;
    for (int i = 0; i < 32; ++i) {
        sum += delta;
        y += ((z << 4) + k0) ^ (z + sum) ^ ((z >> 5) + k1);
        z += ((y << 4) + k2) ^ (y + sum) ^ ((y >> 5) + k3);
    }
    e0[t] = y;
    e1[t] = z;
    if (t == 0) {
        for (int i = 0; i < 32; ++i) {
            z -= ((y << 4) + k2) ^ (y + sum) ^ ((y >> 5) + k3);
            y -= ((z << 4) + k0) ^ (z + sum) ^ ((z >> 5) + k1);
            sum -= delta;
        }
        ok[0] = (y == v0[0] && z == v1[0]) ? 1 : 0;
    }
}
