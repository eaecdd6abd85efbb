"""PTX lowering on hand-written PTX: 64-bit halves, expansions, guards, allocation limits.

Expected values are computed here in plain Python from the PTX's documented meaning.
"""

from __future__ import annotations

import pytest

from compiler.machine.config import DEFAULT

from compiler.errors import CompileError
from compiler.machine.isa import ParamInfo
from ptx_helpers import OUT, compile_ptx, kernel_ptx, run_cuda, run_out

M = 0xFFFFFFFF
X = [ParamInfo("x", "unsigned", False, True)]
PROLOGUE = "ld.param.u64 %rd1, [k_param_0];\ncvta.to.global.u64 %rd1, %rd1;\nld.param.u32 %r1, [k_param_1];\n"


def run_x(body: str, x: int, n_out: int = 1) -> list[int]:
    return run_out(PROLOGUE + body + "\nret;", n_out, extra_params=X, args={"x": str(x)})


@pytest.mark.parametrize("x", [0, 1, 5, 0xFFFFFFFF, 0x80000000])
def test_add64_carry_reaches_high_half(x):
    body = """
    cvt.u64.u32 %rd2, %r1;
    add.s64 %rd3, %rd2, 4294967295;
    shr.u64 %rd4, %rd3, 32;
    cvt.u32.u64 %r2, %rd4;
    st.global.u32 [%rd1], %r2;
    cvt.u32.u64 %r3, %rd3;
    st.global.u32 [%rd1+4], %r3;"""
    total = x + 0xFFFFFFFF
    assert run_x(body, x, 2) == [total >> 32, total & M]


@pytest.mark.parametrize("x", [0, 3, 7, 100, 0xFFFFFFFF, 0x80000001])
def test_sub64_borrow(x):
    body = """
    cvt.u64.u32 %rd2, %r1;
    sub.s64 %rd3, %rd2, 5;
    shr.u64 %rd4, %rd3, 32;
    cvt.u32.u64 %r2, %rd4;
    st.global.u32 [%rd1], %r2;"""
    assert run_x(body, x) == [((x - 5) % (1 << 64)) >> 32]


@pytest.mark.parametrize("x", [0, 1, 2, 3, 100, 12345, 0xFFFFFFFF, 0x80000000])
def test_unsigned_div3_by_mulwide_and_shift(x):
    # what nvcc emits for x / 3u
    body = """
    mul.wide.u32 %rd2, %r1, -1431655765;
    shr.u64 %rd3, %rd2, 33;
    cvt.u32.u64 %r2, %rd3;
    st.global.u32 [%rd1], %r2;"""
    assert run_x(body, x) == [x // 3]


@pytest.mark.parametrize("x", [0, 1, 0x7FFFFFFF, 0x80000000, 0xFFFFFFFF])
def test_mulwide_signed_high_half(x):
    body = """
    mul.wide.s32 %rd2, %r1, -3;
    shr.s64 %rd3, %rd2, 32;
    cvt.u32.u64 %r2, %rd3;
    st.global.u32 [%rd1], %r2;"""
    sx = x - (1 << 32) if x >> 31 else x
    assert run_x(body, x) == [((sx * -3) >> 32) & M]


@pytest.mark.parametrize("x", [0, 1, 5, 0x7FFFFFFF, 0x80000000, 0xFFFFFFFF])
def test_setp64_signed_and_unsigned(x):
    body = """
    cvt.s64.s32 %rd2, %r1;
    setp.lt.s64 %p1, %rd2, 3;
    selp.u32 %r2, 1, 0, %p1;
    st.global.u32 [%rd1], %r2;
    setp.lt.u64 %p2, %rd2, 3;
    selp.u32 %r3, 1, 0, %p2;
    st.global.u32 [%rd1+4], %r3;
    setp.ne.s64 %p3, %rd2, 5;
    selp.u32 %r4, 1, 0, %p3;
    st.global.u32 [%rd1+8], %r4;"""
    sx = x - (1 << 32) if x >> 31 else x
    ux64 = sx % (1 << 64)
    assert run_x(body, x, 3) == [int(sx < 3), int(ux64 < 3), int(sx != 5)]


@pytest.mark.parametrize("k", [0, 4, 31, 32, 36])
def test_shl64_constant(k):
    x = 0x89ABCDEF
    body = f"""
    cvt.u64.u32 %rd2, %r1;
    shl.b64 %rd3, %rd2, {k};
    shr.u64 %rd4, %rd3, 32;
    cvt.u32.u64 %r2, %rd4;
    cvt.u32.u64 %r3, %rd3;
    st.global.u32 [%rd1], %r2;
    st.global.u32 [%rd1+4], %r3;"""
    v = (x << k) % (1 << 64)
    assert run_x(body, x, 2) == [v >> 32, v & M]


@pytest.mark.parametrize("x,y", [(3, 5), (0xFFFFFFFF, 0xFFFFFFFF), (0x12345678, 0x9ABCDEF0)])
def test_mul64_low_and_high(x, y):
    body = f"""
    cvt.u64.u32 %rd2, %r1;
    mov.u64 %rd5, {y};
    mul.lo.s64 %rd3, %rd2, %rd5;
    shr.u64 %rd4, %rd3, 32;
    cvt.u32.u64 %r2, %rd4;
    st.global.u32 [%rd1], %r2;"""
    assert run_x(body, x) == [((x * y) % (1 << 64)) >> 32]


@pytest.mark.parametrize("x", [0, 0x7F, 0x80, 0xFF, 0x12345680, 0xFFFF8000])
def test_sign_and_zero_extension(x):
    body = """
    cvt.s32.s8 %r2, %r1;
    st.global.u32 [%rd1], %r2;
    cvt.u32.u16 %r3, %r1;
    st.global.u32 [%rd1+4], %r3;
    cvt.s32.s16 %r4, %r1;
    st.global.u32 [%rd1+8], %r4;"""
    b, h = x & 0xFF, x & 0xFFFF
    sb = b - 256 if b & 0x80 else b
    sh = h - 65536 if h & 0x8000 else h
    assert run_x(body, x, 3) == [sb & M, h, sh & M]


@pytest.mark.parametrize("x", [0x12345678, 0xF0F0F0F0, 0x80000000])
def test_bfe_bfi(x):
    body = """
    bfe.u32 %r2, %r1, 4, 8;
    st.global.u32 [%rd1], %r2;
    bfe.s32 %r3, %r1, 28, 4;
    st.global.u32 [%rd1+4], %r3;
    bfi.b32 %r4, %r1, 0xAAAAAAAA, 8, 4;
    st.global.u32 [%rd1+8], %r4;"""
    f = (x >> 28) & 0xF
    sf = f - 16 if f & 8 else f
    mask = 0xF << 8
    assert run_x(body, x, 3) == [(x >> 4) & 0xFF, sf & M, (0xAAAAAAAA & ~mask & M) | ((x << 8) & mask)]


@pytest.mark.parametrize("n", [0, 1, 8, 31, 32, 33])
def test_funnel_shift_rotate(n):
    x = 0x80000001
    body = f"""
    mov.u32 %r5, {n};
    shf.l.wrap.b32 %r2, %r1, %r1, %r5;
    st.global.u32 [%rd1], %r2;
    shf.r.clamp.b32 %r3, %r1, %r1, %r5;
    st.global.u32 [%rd1+4], %r3;"""
    k = n & 31
    rotl = ((x << k) | (x >> (32 - k))) & M if k else x
    c = min(n, 32)
    shr_clamp = (((x << 32) | x) >> c) & M  # low word of {b,a} >> c, b = a = x
    assert run_x(body, x, 2) == [rotl, shr_clamp]


@pytest.mark.parametrize("x", [0, 1, 2, 7])
def test_guarded_write_keeps_old_value(x):
    body = """
    mov.u32 %r2, 100;
    setp.lt.u32 %p1, %r1, 2;
    @%p1 add.s32 %r2, %r1, 10;
    st.global.u32 [%rd1], %r2;"""
    assert run_x(body, x) == [x + 10 if x < 2 else 100]


def test_predicate_logic_and_setp_combiner():
    body = """
    setp.gt.u32 %p1, %r1, 3;
    setp.lt.u32 %p2, %r1, 10;
    and.pred %p3, %p1, %p2;
    selp.u32 %r2, 1, 0, %p3;
    st.global.u32 [%rd1], %r2;
    setp.eq.and.u32 %p4, %r1, 5, %p1;
    selp.u32 %r3, 1, 0, %p4;
    st.global.u32 [%rd1+4], %r3;
    setp.eq.u32 %p5, %r1, 5;
    not.pred %p6, %p5;
    selp.u32 %r4, 1, 0, %p6;
    st.global.u32 [%rd1+8], %r4;"""
    for x in (2, 5, 12):
        assert run_x(body, x, 3) == [int(3 < x < 10), int(x == 5 and x > 3), int(x != 5)]


def test_division_64_is_refused_with_line():
    body = PROLOGUE + "cvt.u64.u32 %rd2, %r1;\ndiv.u64 %rd3, %rd2, 7;\ncvt.u32.u64 %r2, %rd3;\nst.global.u32 [%rd1], %r2;\nret;"
    ptx = kernel_ptx(body, ".param .u64 k_param_0,\n.param .u32 k_param_1")
    with pytest.raises(CompileError) as e:
        compile_ptx(ptx, OUT + X)
    assert "div.u64" in e.value.message
    line = ptx.splitlines().index("div.u64 %rd3, %rd2, 7;") + 1
    assert e.value.line == line


@pytest.mark.parametrize("instr", ["add.f32 %f1, %f2, %f3;", "call foo;", "st.global.u8 [%rd1], %rs1;",
                                   "brx.idx %r1, tbl;"])
def test_unsupported_instructions_named(instr):
    ptx = kernel_ptx(PROLOGUE + instr + "\nret;", ".param .u64 k_param_0,\n.param .u32 k_param_1",
                     ".reg .pred %p<8>;\n.reg .b32 %r<40>;\n.reg .b64 %rd<40>;\n.reg .f32 %f<4>;\n.reg .b16 %rs<4>;")
    with pytest.raises(CompileError) as e:
        compile_ptx(ptx, OUT + X)
    assert e.value.line == ptx.splitlines().index(instr) + 1
    assert instr.split()[0].split(".")[0] in str(e.value) or "call" in str(e.value)


def test_register_pressure_is_reported():
    # 17 values loaded, all alive until a final sum: more than 15 registers
    loads = "\n".join(f"ld.global.u32 %r{i + 2}, [%rd1+{4 * i}];" for i in range(17))
    adds = "\n".join(f"add.s32 %r20, %r20, %r{i + 2};" for i in range(17))
    body = PROLOGUE + "mov.u32 %r20, 0;\n" + loads + "\n" + adds + "\nst.global.u32 [%rd1], %r20;\nret;"
    ptx = kernel_ptx(body, ".param .u64 k_param_0,\n.param .u32 k_param_1")
    with pytest.raises(CompileError) as e:
        compile_ptx(ptx, OUT + X)
    assert "registers" in e.value.message and "15" in e.value.message
    assert e.value.line is not None


def test_many_values_fit_when_not_alive_together():
    loads = "\n".join(f"ld.global.u32 %r{i + 2}, [%rd1+{4 * i}];\nadd.s32 %r30, %r30, %r{i + 2};" for i in range(20))
    body = PROLOGUE + "mov.u32 %r30, 0;\n" + loads + "\nst.global.u32 [%rd1], %r30;\nret;"
    out = run_out(body, 20, extra_params=X, args={"x": "0"})
    assert out[0] == 0


def test_rom_overflow_is_reported():
    # every bar.sync ends a block: n barriers need n + 1 blocks
    n = DEFAULT.rom_blocks + 8
    body = PROLOGUE + "\n".join("add.s32 %r2, %r2, 1;\nbar.sync 0;" for _ in range(n)) + "\nret;"
    ptx = kernel_ptx(body, ".param .u64 k_param_0,\n.param .u32 k_param_1")
    with pytest.raises(CompileError) as e:
        compile_ptx(ptx, OUT + X)
    assert f"needs {n + 1} blocks but the ROM holds {DEFAULT.rom_blocks} (over by 9)" in e.value.message


@pytest.mark.parametrize("x", [0, 1, 0x10, 0x80000000, 0xFFFFFFFF, 0xFFFF0000, 0x7FFFFFFF])
def test_bfind(x):
    body = """
    bfind.u32 %r2, %r1;
    st.global.u32 [%rd1], %r2;
    bfind.s32 %r3, %r1;
    st.global.u32 [%rd1+4], %r3;
    bfind.shiftamt.u32 %r4, %r1;
    st.global.u32 [%rd1+8], %r4;"""
    msb_u = x.bit_length() - 1 if x else None
    non_sign = (~x & M) if x >> 31 else x  # signed: the most significant bit that differs from the sign
    msb_s = non_sign.bit_length() - 1 if non_sign else None
    assert run_x(body, x, 3) == [M if msb_u is None else msb_u, M if msb_s is None else msb_s,
                                  M if msb_u is None else 31 - msb_u]


@pytest.mark.parametrize("x", [0, 3, 10, 0xFFFFFFFF, 0x80000000])
def test_sad(x):
    body = """
    sad.s32 %r2, %r1, 5, 100;
    st.global.u32 [%rd1], %r2;
    sad.u32 %r3, %r1, 5, 100;
    st.global.u32 [%rd1+4], %r3;"""
    sx = x - (1 << 32) if x >> 31 else x
    assert run_x(body, x, 2) == [(100 + abs(sx - 5)) & M, (100 + abs(x - 5)) & M]


def test_narrowed_byte_and_halfword_loads():
    """nvcc turns ``x[i] & 255`` into ``ld.global.u8``: the machine loads the word and extracts."""
    src = """extern "C" __global__ void k(const int* a, const int* b, int* out) {
        int t = threadIdx.x;
        out[t] = (a[t] & 255) + ((b[t] & 0xffff) << 1);
        out[4 + t] = (a[t] & 0x100) ? 5 : b[t];
        out[8 + t] = (signed char)(a[t] >> 8) + (short)b[t];
    }"""
    a = [0x1FF, -1, 0x12345678, 0x80]
    b = [0x18001, -2, 0x7FFF, 3]

    def sx(v: int, bits: int) -> int:
        v &= (1 << bits) - 1
        return v - (1 << bits) if v >> (bits - 1) else v

    want = ([(x & 255) + ((y & 0xFFFF) << 1) for x, y in zip(a, b)]
            + [5 if x & 0x100 else y for x, y in zip(a, b)]
            + [sx(x >> 8, 8) + sx(y, 16) for x, y in zip(a, b)])
    prog, got = run_cuda(src, "narrow.cu", 4, a=",".join(map(str, a)), b=",".join(map(str, b)), out="zeros:12")
    assert any(line.strip().startswith(("ld.global.u8", "ld.global.s16")) for line in prog.ptx.splitlines())
    assert got["out"] == [w & M for w in want]


def test_char_view_of_an_int_array():
    """Bytes of an int array read through a ``signed char*`` (little-endian, like the GPU)."""
    src = """__global__ void k(const int* a, int* out) {
        const signed char* bytes = (const signed char*)a;
        out[threadIdx.x] = bytes[3 * threadIdx.x + 1];
    }"""
    a = [0x11223344, -0x7F00, 0x7F80FF01, 0x00C0FFEE]
    raw = b"".join((x & M).to_bytes(4, "little") for x in a)
    want = [int.from_bytes(raw[3 * t + 1:3 * t + 2], "little", signed=True) & M for t in range(4)]
    _, got = run_cuda(src, "bytes.cu", 4, a=",".join(map(str, a)), out="zeros:4")
    assert got["out"] == want


def test_registers_declared_in_inner_blocks_do_not_clobber_outer_ones():
    # inline asm blocks declare their own %p1: it must not overwrite the kernel's %p1
    body = """
    setp.eq.u32 %p1, %r1, 7;
    {
    .reg .pred %p1;
    setp.ne.u32 %p1, %r1, 7;
    selp.u32 %r3, 1, 0, %p1;
    }
    selp.u32 %r2, 1, 0, %p1;
    st.global.u32 [%rd1], %r2;
    st.global.u32 [%rd1+4], %r3;"""
    assert run_x(body, 7, 2) == [1, 0]
    assert run_x(body, 3, 2) == [0, 1]


def test_roll_loops_keeps_lines_and_skips_do_while_tails():
    from compiler.cuda_to_ptx import roll_loops

    src = ("int f(int x, int y) {\n  do { x++; } while (x < 3);\n  #pragma unroll 4\n  for (;;) {}\n"
           "  for (int i = 0; i < y; i++) x += i;  // for\n  return x; /* while */ }\n")
    out = roll_loops(src)
    assert out.count("\n") == src.count("\n")
    assert out.count('_Pragma("unroll 1")') == 2  # the do and the second for
    assert '_Pragma("unroll 1") for (int i' in out and "#pragma unroll 4\n  for (;;)" in out
    forced = roll_loops(src, override=True)
    assert "#pragma unroll 1\n  for (;;)" in forced and forced.count("\n") == src.count("\n")


def test_kernel_that_fits_only_with_loops_rolled():
    from compiler.kernel_compiler import compile_file
    from conftest import ROOT

    prog = compile_file(ROOT / "tests" / "suite" / "grid_stride_atomic.cu")
    assert prog.unroll == "rolled"


def test_vector_loads_and_stores():
    """int2 / int4 accesses compile to ld/st.v2/.v4 with brace operands."""
    src = """__global__ void k(const int* a, int* out) {
        int t = threadIdx.x;
        int4 v = reinterpret_cast<const int4*>(a)[t];
        int2 w = make_int2(v.x + v.w, v.y - v.z);
        reinterpret_cast<int2*>(out)[t] = w;
    }"""
    a = list(range(1, 17))
    prog, got = run_cuda(src, "vec.cu", 4, a=",".join(map(str, a)), out="zeros:8")
    assert ".v4." in prog.ptx and ".v2." in prog.ptx
    want = []
    for t in range(4):
        x, y, z, w = a[4 * t:4 * t + 4]
        want += [x + w, (y - z) & M]
    assert got["out"] == want


@pytest.mark.parametrize("x", [3, 0x00FFFFFF, 0x00800000, 0xFF800001, 0x12345678])
def test_mul24(x):
    body = """
    mul24.lo.s32 %r2, %r1, 1000;
    st.global.u32 [%rd1], %r2;
    mul24.lo.u32 %r3, %r1, 1000;
    st.global.u32 [%rd1+4], %r3;
    mul24.hi.u32 %r4, %r1, 0x00FFFFFF;
    st.global.u32 [%rd1+8], %r4;"""
    s24 = (x & 0xFFFFFF) - (1 << 24) if x & 0x800000 else x & 0xFFFFFF
    u24 = x & 0xFFFFFF
    assert run_x(body, x, 3) == [(s24 * 1000) & M, (u24 * 1000) & M, ((u24 * 0xFFFFFF) >> 16) & M]


def test_64bit_pack_shift_and_products():
    """nvcc packs two words with bfi.b64 and loads u32 straight into 64-bit registers."""
    src = """extern "C" __global__ void k(const unsigned* a, const unsigned* b, unsigned* out) {
        int t = threadIdx.x;
        unsigned long long v = ((unsigned long long)a[t] << 32) | b[t];
        out[t] = (unsigned)(v >> 12);
        unsigned long long p = (unsigned long long)a[t] * b[t];
        out[4 + t] = (unsigned)(p >> 40) + (unsigned)p;
        long long q = (long long)(int)a[t] * (int)b[t];
        out[8 + t] = (q < 0) ? 1u : 2u;
    }"""
    a = [1, 0xFFFFFFFF, 0x12345678, 7]
    b = [2, 0xFFFFFFFF, 0x9ABCDEF0, 0]

    def s32(x: int) -> int:
        return x - (1 << 32) if x >> 31 else x

    want = ([(((x << 32) | y) >> 12) & M for x, y in zip(a, b)]
            + [(((x * y) >> 40) + (x * y)) & M for x, y in zip(a, b)]
            + [1 if s32(x) * s32(y) < 0 else 2 for x, y in zip(a, b)])
    _, got = run_cuda(src, "pack.cu", 4, a=",".join(map(str, a)), b=",".join(map(str, b)), out="zeros:12")
    assert got["out"] == want


@pytest.mark.parametrize("x", [0x0000FFFF, 0x12348000, 0xFFFF0005, 0x00007FFF])
def test_16bit_ops_ignore_garbage_above_the_half(x):
    """A 16-bit register lives in a 32-bit one; ops that look at its sign must extend it first."""
    body = """
    cvt.u16.u32 %rs1, %r1;
    abs.s16 %rs2, %rs1;
    cvt.u32.u16 %r2, %rs2;
    st.global.u32 [%rd1], %r2;
    setp.lt.s16 %p1, %rs1, 0;
    selp.u32 %r3, 1, 0, %p1;
    st.global.u32 [%rd1+4], %r3;
    cnot.b16 %rs3, %rs1;
    cvt.u32.u16 %r4, %rs3;
    st.global.u32 [%rd1+8], %r4;"""
    h = x & 0xFFFF
    sh = h - 0x10000 if h & 0x8000 else h
    assert run_x(body, x, 3) == [abs(sh) & 0xFFFF, int(sh < 0), int(h == 0)]


SREG_SRC = r"""
__global__ void k(unsigned* out) {
    unsigned t = threadIdx.x, lt, le, gt, ge, eq, wid, nw;
    asm("mov.u32 %0, %%lanemask_lt;" : "=r"(lt));
    asm("mov.u32 %0, %%lanemask_le;" : "=r"(le));
    asm("mov.u32 %0, %%lanemask_gt;" : "=r"(gt));
    asm("mov.u32 %0, %%lanemask_ge;" : "=r"(ge));
    asm("mov.u32 %0, %%lanemask_eq;" : "=r"(eq));
    asm("mov.u32 %0, %%warpid;" : "=r"(wid));
    asm("mov.u32 %0, %%nwarpid;" : "=r"(nw));
    out[t * 4 + 0] = lt ^ (le << 1) ^ (gt * 3u) ^ (ge * 5u) ^ (eq * 7u);
    out[t * 4 + 1] = threadIdx.y + 10u * threadIdx.z + 100u * blockIdx.y + 1000u * blockIdx.z;
    out[t * 4 + 2] = blockDim.y + 10u * blockDim.z + 100u * gridDim.y + 1000u * gridDim.z;
    out[t * 4 + 3] = wid + 10u * nw;
}
"""


def test_special_registers_follow_from_the_basic_ones():
    """Every special register but tid/ntid/ctaid/nctaid.x and laneid is computed from them by
    the kernel compiler; the values are the machine's (docs/machine.md), computed here in Python."""
    from compiler.machine.isa import Op

    prog, arrays = run_cuda(SREG_SRC, "k", 4, out="zeros:16")
    sregs = {i.mod for b in prog.blocks for i in b.instrs if i.op is Op.SREG}
    assert sregs <= {"tid.x", "ntid.x", "ctaid.x", "nctaid.x", "laneid"}, sregs
    want = []
    for t in range(4):
        lane = t % 32
        lt, le = (1 << lane) - 1, (2 << lane) - 1
        gt, ge, eq = (M << (lane + 1)) & M, (M << lane) & M, 1 << lane
        want += [(lt ^ (le << 1) ^ (gt * 3) ^ (ge * 5) ^ (eq * 7)) & M, 0, 1 + 10 + 100 + 1000, 0 + 10 * 1]
    assert arrays["out"] == want


GUARDED_WARP_OPS = """
ld.param.u64 %rd1, [k_param_0];
cvta.to.global.u64 %rd1, %rd1;
mov.u32 %r1, %tid.x;
mad.lo.s32 %r2, %r1, 10, 5;
mov.u32 %r3, 99;
mov.u32 %r4, 7;
setp.lt.u32 %p1, %r1, 2;
setp.ge.u32 %p2, %r1, 2;
setp.eq.u32 %p3, %r1, 3;
shr.u32 %r6, %r1, 31;
add.u32 %r6, %r6, 1;
@%p1 shfl.sync.bfly.b32 %r3, %r2, %r6, 31, 3;
@%p2 vote.sync.ballot.b32 %r4, %p3, 12;
mul.wide.u32 %rd2, %r1, 8;
add.s64 %rd3, %rd1, %rd2;
st.global.u32 [%rd3], %r3;
st.global.u32 [%rd3+4], %r4;
ret;
"""


def test_guarded_shuffle_and_vote_become_branches_around_them():
    """Only lanes 0-1 run the shuffle (partners of each other), only lanes 2-3 the ballot (of
    tid == 3, bit 3); the others keep their old values. The circuit has no guarded cross-lane
    op, so the compiler emits none. (The lane offset 1 is computed, because a ROM instruction
    holds two immediates and the shuffle already has two.)"""
    prog = compile_ptx(kernel_ptx(GUARDED_WARP_OPS), OUT)
    warp_ops = [i for b in prog.blocks for i in b.instrs if i.op.value in ("shfl", "vote")]
    assert len(warp_ops) == 2 and all(i.guard is None for i in warp_ops)
    from engine.interpreter import run
    from engine.launch import build_launch
    out = run(prog, build_launch(prog, 1, 4, {"out": "zeros:8"})).arrays["out"]
    assert out == [15, 7, 5, 7, 99, 0x8, 99, 0x8]
