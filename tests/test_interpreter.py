"""The interpreter's scheduling, reconvergence, barrier and fault rules (docs/machine.md)."""

from __future__ import annotations

import pytest

from compiler.errors import RuntimeFault
from compiler.kernel_compiler import compile_cuda
from engine.interpreter import Interpreter, run
from engine.launch import build_launch


def launch(src: str, grid: int, block: int, **args: str):
    prog = compile_cuda(src, "t.cu")
    return prog, build_launch(prog, grid, block, args)


DIAMOND = """
extern "C" __global__ void k(int* out) {
    int t = threadIdx.x;
    int v = 0;
    if (t & 1) {
        #pragma unroll 1
        for (int i = 0; i <= t; i++) v += i;
        out[8 + t] = v;
    } else {
        v = t + 100;
        #pragma unroll 1
        for (int i = 0; i < t + 2; i++) v += 2 * i;
        atomicAdd(&out[12], v);
    }
    out[t] = v;
}
"""


def test_if_else_reconverges_before_the_join():
    prog, l = launch(DIAMOND, 1, 4, out="zeros:16")
    res = run(prog, l)
    even = [t + 100 + sum(2 * i for i in range(t + 2)) for t in (0, 2)]
    assert res.arrays["out"][:4] == [even[0], 0 + 1, even[1], 0 + 1 + 2 + 3]
    assert res.arrays["out"][12] == sum(even)
    # the store out[t] = v happens in one block, executed once, by all four lanes together
    join = [ev for ev in res.trace if any(w == t for w, _ in ev.mem_writes for t in range(4))]
    assert len(join) == 1 and join[0].mask == 0b1111
    # each side of the branch ran once, for its own lanes; the atomic of the even side runs in a
    # serial block: once per lane, in lane order, one step after the other
    serial = [ev for ev in res.trace if prog.blocks[ev.block].serial]
    masks = sorted(ev.mask for ev in res.trace if ev.mem_writes and ev not in join + serial)
    assert masks == [0b1010]
    assert [ev.mask for ev in serial] == [0b0001, 0b0100]
    assert serial[1].step == serial[0].step + 1
    assert [v for ev in serial for _, v in ev.mem_writes] == [even[0], sum(even)]


LOOP = """
extern "C" __global__ void k(const int* n, int* out) {
    int t = threadIdx.x, acc = 0;
    #pragma unroll 1
    for (int i = 0; i < n[t]; i++) acc += i + 1;
    out[t] = acc;
}
"""


def test_data_dependent_loop_runs_until_the_last_lane_leaves():
    prog, l = launch(LOOP, 1, 4, n="0,3,1,5", out="zeros:4")
    res = run(prog, l)
    assert res.arrays["out"] == [0, 6, 1, 15]
    store = [ev for ev in res.trace if ev.mem_writes]
    assert len(store) == 1 and store[0].mask == 0b1111  # everyone waits at the loop exit


BARRIER = """
extern "C" __global__ void k(int* out) {
    __shared__ int s[8];
    int t = threadIdx.x;
    s[t] = t * t;
    __syncthreads();
    out[t] = s[7 - t];
}
"""


def test_barrier_orders_two_warps_and_round_robin_alternates():
    prog, l = launch(BARRIER, 1, 8, out="zeros:8")
    interp = Interpreter(prog, l)
    res = interp.run()
    assert res.arrays["out"] == [(7 - t) ** 2 for t in range(8)]
    warps = [ev.warp for ev in res.trace]
    assert warps[:4] == [0, 1, 0, 1]
    # no warp reads shared memory before every warp has written it
    last_store = max(i for i, ev in enumerate(res.trace) if ev.mem_writes and ev.mem_writes[0][0] >= 8)
    first_read = min(i for i, ev in enumerate(res.trace) if ev.mem_reads)
    assert last_store < first_read


def test_two_ctas_have_separate_shared_memory():
    prog, l = launch(BARRIER.replace("out[t]", "out[blockIdx.x * 8 + t]").replace("t * t", "t * t + 100 * blockIdx.x"),
                     2, 8, out="zeros:16")
    res = run(prog, l)
    assert res.arrays["out"] == [(7 - t) ** 2 + 100 * c for c in range(2) for t in range(8)]


def test_out_of_bounds_read_names_address_and_thread():
    src = 'extern "C" __global__ void k(const int* a, int* out) { out[threadIdx.x] = a[threadIdx.x * 4]; }'
    prog, l = launch(src, 1, 4, a="1,2,3,4", out="zeros:4")
    with pytest.raises(RuntimeFault) as e:
        run(prog, l)
    msg = str(e.value)
    # a (4 words) and out (4 words) fill words 0..7; thread 2 reads a[8] = word 8, byte 0x20
    assert "out-of-bounds global read" in msg and "0x20" in msg
    assert "thread 2 of CTA 0 (warp 0, lane 2)" in msg


def test_shared_out_of_bounds():
    src = """extern "C" __global__ void k(int* out) { __shared__ int s[4]; s[threadIdx.x + 1] = 1;
             __syncthreads(); out[threadIdx.x] = s[threadIdx.x]; }"""
    prog, l = launch(src, 1, 4, out="zeros:4")
    with pytest.raises(RuntimeFault) as e:
        run(prog, l)
    assert "out-of-bounds shared write" in str(e.value) and "lane 3" in str(e.value)


def test_runaway_loop_stops_at_step_limit():
    src = 'extern "C" __global__ void k(volatile int* f) { while (f[0] == 0) { } }'
    prog, l = launch(src, 1, 1, f="0")
    with pytest.raises(RuntimeFault) as e:
        Interpreter(prog, l, max_steps=50).run()
    assert "50 EXEC steps" in str(e.value)


def test_shuffle_across_4_lane_warps_is_refused():
    src = """extern "C" __global__ void k(int* out) {
        out[threadIdx.x] = __shfl_down_sync(0xffffffff, (int)threadIdx.x, 1); }"""
    prog, l = launch(src, 1, 8, out="zeros:8")
    with pytest.raises(RuntimeFault) as e:
        run(prog, l)
    assert "another 4-lane warp" in str(e.value) and "source lane 4" in str(e.value)


def test_width4_shuffle_matches_hardware_in_second_group():
    src = """extern "C" __global__ void k(int* out) {
        int t = threadIdx.x;
        out[t] = __shfl_down_sync(0xff, t * 10, 1, 4);
        out[8 + t] = __shfl_xor_sync(0xff, t * 10, 2, 4); }"""
    prog, l = launch(src, 1, 8, out="zeros:16")
    res = run(prog, l).arrays["out"]
    # down by 1 within groups of 4; the last lane of a group keeps its own value
    assert res[:8] == [10, 20, 30, 30, 50, 60, 70, 70]
    assert res[8:] == [20, 30, 0, 10, 60, 70, 40, 50]


def test_ballot_sets_hardware_lane_bits():
    src = """extern "C" __global__ void k(const int* a, unsigned* out) {
        int t = threadIdx.x;
        unsigned m = t < 4 ? 0xfu : 0xf0u;
        out[t] = __ballot_sync(m, a[t] > 0); }"""
    prog, l = launch(src, 1, 8, a="1,0,1,1,0,1,1,0", out="zeros:8")
    res = run(prog, l).arrays["out"]
    assert res == [0b1101] * 4 + [0b01100000] * 4


def test_exited_threads_do_not_block_a_barrier():
    src = """extern "C" __global__ void k(int* out) {
        __shared__ int s[4];
        int t = threadIdx.x;
        if (t >= 2) return;
        s[t] = t + 1;
        __syncthreads();
        out[t] = s[0] + s[1]; }"""
    prog, l = launch(src, 1, 4, out="zeros:4")
    assert run(prog, l).arrays["out"] == [3, 3, 0, 0]


def test_laneid_is_the_32_lane_identity():
    src = """extern "C" __global__ void k(unsigned* out) {
        unsigned l; asm("mov.u32 %0, %%laneid;" : "=r"(l)); out[blockIdx.x * 8 + threadIdx.x] = l; }"""
    prog, l = launch(src, 2, 6, out="zeros:16")
    res = run(prog, l).arrays["out"]
    assert res[:6] == [0, 1, 2, 3, 4, 5] and res[8:14] == [0, 1, 2, 3, 4, 5]


def test_full_mask_votes_across_4_lane_warps():
    """__ballot_sync(0xffffffff, ...) with 9 threads: one 32-lane warp on a GPU, three 4-lane warps here."""
    src = """extern "C" __global__ void k(const int* a, unsigned* out) {
        int t = threadIdx.x;
        int i = blockIdx.x * blockDim.x + t;
        unsigned b = __ballot_sync(0xffffffff, a[i] > 0);
        int any = __any_sync(0xffffffff, a[i] == 7);
        int all = __all_sync(0xffffffff, a[i] >= 0);
        out[i] = b * 100 + any * 10 + all; }"""
    a = [1, 0, 3, 7, 0, 1, 1, -1, 5, 2, 2, 0, 4, 4]
    prog, l = launch(src, 2, 7, a=",".join(map(str, a)), out="zeros:14")
    res = run(prog, l).arrays["out"]
    want = []
    for cta in range(2):
        vals = a[cta * 7:(cta + 1) * 7]
        ballot = sum(1 << t for t, v in enumerate(vals) if v > 0)
        want += [ballot * 100 + 10 * any(v == 7 for v in vals) + all(v >= 0 for v in vals)] * 7
    assert res == want


def test_long_nested_loop_runs_past_thousands_of_steps():
    src = """extern "C" __global__ void k(unsigned* out, int n) {
        unsigned acc = threadIdx.x;
        for (int i = 0; i < n; i++) for (int j = 0; j < n; j++) acc = acc * 31u + (unsigned)(i ^ j);
        out[threadIdx.x] = acc; }"""
    prog, l = launch(src, 1, 16, out="zeros:16", n="40")
    res = run(prog, l)
    want = []
    for t in range(16):
        acc = t
        for i in range(40):
            for j in range(40):
                acc = (acc * 31 + (i ^ j)) & 0xFFFFFFFF
        want.append(acc)
    assert res.arrays["out"] == want and len(res.trace) > 4096


def test_activemask_in_divergent_code():
    src = """extern "C" __global__ void k(unsigned* m) {
        int t = threadIdx.x; unsigned r;
        if (t < 2) r = __activemask(); else r = __activemask() + 100u;
        m[t] = r; }"""
    prog, l = launch(src, 1, 4, m="zeros:4")
    assert run(prog, l).arrays["m"] == [0b0011, 0b0011, 0b1100 + 100, 0b1100 + 100]
    # with 8 threads the 32-lane warp spans two 4-lane warps: refused, not guessed
    prog, l = launch(src, 1, 8, m="zeros:8")
    with pytest.raises(RuntimeFault) as e:
        run(prog, l)
    assert "__activemask" in str(e.value) and "another 4-lane warp" in str(e.value)
