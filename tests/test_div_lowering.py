"""Division and remainder compile to straight-line multiply sequences (compiler/isel_div.py).

Expected values are plain Python integer arithmetic written here: C division
(truncation toward zero, remainder with the dividend's sign) plus NVIDIA's results
where C leaves it undefined, copied as literal rules. The emitted machine ops are
run with the machine's per-op meaning (``semantics.ALU``: add, mul, mulhi, ...);
the sequences must not contain div/rem at all.
"""

from __future__ import annotations

import os
import random

import pytest

from compiler.isel_common import LowerCtx
from compiler.isel_div import OPS_PER_KIND, OPS_REUSING_RECIPROCAL, FoldingSeq, emit_divrem, reciprocal
from compiler.kernel_compiler import compile_cuda, compile_file
from compiler.machine.isa import Imm, Op, ParamInfo, Reg
from compiler.machine.semantics import ALU, compare
from conftest import SAMPLES
from engine.interpreter import run
from engine.launch import build_launch
from ptx_helpers import OUT, compile_ptx, kernel_ptx, run_out

M = 0xFFFFFFFF
INT_MIN = 0x80000000
CIRCUIT_OPS = {Op.MOV, Op.ADD, Op.SUB, Op.MUL, Op.MULHI_U, Op.MULHI_S, Op.SHL, Op.SHR_U, Op.SHR_S,
               Op.AND, Op.OR, Op.XOR, Op.NOT, Op.POPC, Op.CLZ, Op.BREV, Op.SELP, Op.SETP,
               Op.MIN_S, Op.MIN_U, Op.MAX_S, Op.MAX_U}
DIVREM_OPS = {Op.DIV_S, Op.DIV_U, Op.REM_S, Op.REM_U}
KINDS = [("div", False), ("rem", False), ("div", True), ("rem", True)]


def s32(x: int) -> int:
    return x - (1 << 32) if x & 0x80000000 else x


def expected(kind: str, signed: bool, a: int, b: int) -> int:
    """C semantics, with the hardware's answers where C has none."""
    if not signed:
        if b == 0:
            return M if kind == "div" else a  # div.u by 0: all ones; rem.u by 0: the dividend
        return a // b if kind == "div" else a % b
    x, y = s32(a), s32(b)
    if y == 0:  # div.s by 0: -1 for every a (as an H200 gives, tests/hw/); rem.s by 0: the dividend
        return M if kind == "div" else a
    if x == -(1 << 31) and y == -1:  # INT_MIN / -1 overflows: INT_MIN, remainder 0
        return INT_MIN if kind == "div" else 0
    q = abs(x) // abs(y)
    if (x < 0) != (y < 0):
        q = -q  # truncation toward zero
    r = x - q * y  # the remainder has the dividend's sign
    return (q if kind == "div" else r) & M


def emit(kind: str, signed: bool, a=Reg("a"), b=Reg("b"), after: tuple[str, bool] | None = None):
    """The instructions of one division; ``after``: another (kind, signed) by the same b first."""
    c = LowerCtx(kernel=None, filename="t.ptx", shared_offsets={}, hi=set(), params={}, shared_ptrs=set())
    if after is not None:
        emit_divrem(c, Reg("first"), Reg("a0"), b, after[1], after[0] == "rem")
        c.out.clear()
    emit_divrem(c, Reg("out"), a, b, signed, kind == "rem")
    return c.out


def _name(v) -> str:
    return f"v_{str(v.n).replace('.', '_')}"


def compile_seq(instrs):
    """The instruction list as a Python function (a, b) -> out, one line per instruction."""
    lines = ["def f(v_a, v_b):"]
    env = {"ALU": {op.name: fn for op, fn in ALU.items()}, "compare": compare}
    for i in instrs:
        assert i.op in CIRCUIT_OPS and i.guard is None and i.dst2 is None, str(i)
        args = [str(s.value) if isinstance(s, Imm) else _name(s) for s in i.srcs]
        if i.op is Op.SETP:
            lines.append(f"    {_name(i.dst)} = compare({i.mod!r}, {args[0]}, {args[1]})")
        elif i.op is Op.SELP:
            lines.append(f"    {_name(i.dst)} = {args[0]} if {args[2]} else {args[1]}")
        else:
            lines.append(f"    {_name(i.dst)} = ALU[{i.op.name!r}]({', '.join(args)})")
    lines.append("    return v_out")
    exec("\n".join(lines), env)
    return env["f"]


def _edges() -> list[int]:
    base = [0, 1, 2, 3, 5, 7, 10, 255, 256, 0x7FFFFFFF, 0x80000000, 0x80000001, 0xFFFFFFFF, 0xFFFFFFFE,
            0x10000, 0xFFFF, 0x10001, 12345, 1000000007, 65535 * 65537 // 3, 0x55555555, 0xAAAAAAAB]
    base += [1 << k for k in range(32)] + [(1 << k) - 1 for k in range(2, 33)] + [(1 << k) + 1 for k in range(1, 32)]
    return sorted({v & M for x in base for v in (x, -x)})


EDGES = _edges()


def _random_pairs(seed: int, count: int) -> list[tuple[int, int]]:
    rng = random.Random(seed)
    out = []
    for _ in range(count):
        # random bit lengths, so small and large divisors and quotients are all common
        a = rng.getrandbits(rng.randint(0, 32))
        b = rng.getrandbits(rng.randint(0, 32))
        if rng.random() < 0.5:
            a = -a & M
        if rng.random() < 0.5:
            b = -b & M
        out.append((a, b))
    return out


@pytest.mark.parametrize("kind,signed", KINDS, ids=[f"{k}.{'s' if s else 'u'}" for k, s in KINDS])
def test_straight_line_and_counted(kind, signed):
    instrs = emit(kind, signed)
    assert not any(i.op in DIVREM_OPS for i in instrs)
    assert all(i.op in CIRCUIT_OPS and i.guard is None for i in instrs)
    assert len(instrs) == OPS_PER_KIND[(kind, signed)]
    assert instrs[-1].dst == Reg("out") and sum(i.dst == Reg("out") for i in instrs) == 1


@pytest.mark.parametrize("kind,signed", KINDS, ids=[f"{k}.{'s' if s else 'u'}" for k, s in KINDS])
def test_every_edge_pair(kind, signed):
    f = compile_seq(emit(kind, signed))
    bad = [(a, b) for a in EDGES for b in EDGES if f(a, b) != expected(kind, signed, a, b)]
    assert not bad, f"{len(bad)} wrong, e.g. {[(hex(a), hex(b)) for a, b in bad[:5]]}"


@pytest.mark.parametrize("kind,signed", KINDS, ids=[f"{k}.{'s' if s else 'u'}" for k, s in KINDS])
def test_second_division_by_the_same_register(kind, signed):
    """After a division by b (the other kind), only the quotient steps are emitted."""
    first = ("rem" if kind == "div" else "div", signed)
    instrs = emit(kind, signed, after=first)
    assert len(instrs) == OPS_REUSING_RECIPROCAL[(kind, signed)]
    c = LowerCtx(kernel=None, filename="t.ptx", shared_offsets={}, hi=set(), params={}, shared_ptrs=set())
    emit_divrem(c, Reg("first"), Reg("a"), Reg("b"), signed, first[0] == "rem")
    emit_divrem(c, Reg("out"), Reg("a"), Reg("b"), signed, kind == "rem")
    f = compile_seq(c.out)
    pairs = [(a, b) for a in EDGES[::4] for b in EDGES[::3]] + _random_pairs(99, 3000)
    assert all(f(a, b) == expected(kind, signed, a, b) for a, b in pairs)


@pytest.mark.parametrize("kind,signed", KINDS, ids=[f"{k}.{'s' if s else 'u'}" for k, s in KINDS])
def test_random_pairs(kind, signed):
    f = compile_seq(emit(kind, signed))
    pairs = _random_pairs(20240601 + len(kind) + signed, 25_000)
    bad = [(a, b) for a, b in pairs if f(a, b) != expected(kind, signed, a, b)]
    assert not bad, f"{len(bad)} wrong, e.g. {[(hex(a), hex(b)) for a, b in bad[:5]]}"


def test_expected_matches_hand_worked_values():
    """The reference itself, on values worked out by hand."""
    assert expected("div", True, -7 & M, 2) == -3 & M and expected("rem", True, -7 & M, 2) == -1 & M
    assert expected("div", True, 7, -2 & M) == -3 & M and expected("rem", True, 7, -2 & M) == 1
    assert expected("div", True, INT_MIN, M) == INT_MIN and expected("rem", True, INT_MIN, M) == 0
    assert expected("div", True, 5, 0) == M and expected("div", True, -5 & M, 0) == M  # -1 for every a, as an H200 gives
    assert expected("rem", True, -5 & M, 0) == -5 & M
    assert expected("div", False, -7 & M, 2) == 0x7FFFFFFC and expected("rem", False, -7 & M, 2) == 1
    assert expected("div", False, 5, 0) == M and expected("rem", False, 5, 0) == 5


@pytest.mark.parametrize("kind,signed", KINDS, ids=[f"{k}.{'s' if s else 'u'}" for k, s in KINDS])
def test_constant_operands_fold(kind, signed):
    """A constant divisor folds the reciprocal away; two constants fold to a mov."""
    for b in (0, 1, 3, 7, 0x80000000, 0xFFFFFFFF, -3 & M):
        instrs = emit(kind, signed, b=Imm(b))
        assert len(instrs) < OPS_PER_KIND[(kind, signed)] - 12
        f = compile_seq(instrs)
        for a in EDGES[::3]:
            assert f(a, None) == expected(kind, signed, a, b), (hex(a), hex(b))
    for a, b in [(100, 7), (-100 & M, 7), (5, 0), (INT_MIN, M)]:
        instrs = emit(kind, signed, a=Imm(a), b=Imm(b))
        assert [i.op for i in instrs] == [Op.MOV] and instrs[0].srcs == (Imm(expected(kind, signed, a, b)),)


# --- the reciprocal: checked for every divisor on request ------------------------------------------


def _reciprocal_fn():
    c = LowerCtx(kernel=None, filename="t.ptx", shared_offsets={}, hi=set(), params={}, shared_ptrs=set())
    seq = FoldingSeq(c)
    nd = seq.op(Op.SUB, Imm(0), Reg("b"))
    c.emit(Op.MOV, Reg("out"), (reciprocal(seq, Reg("b"), nd),))
    return c.out


def _check_reciprocals(ds) -> list[int]:
    """Divisors whose reciprocal m breaks the bound the quotient estimate needs:
    d*m <= 2^32 and Q*(2^32 - d*m) <= 2^32 for the largest quotient Q = floor((2^32-1)/d)."""
    np = pytest.importorskip("numpy")
    d = np.asarray(ds, dtype=np.uint64)
    regs = {"b": d}
    mask = np.uint64(M)
    for i in _reciprocal_fn():
        v = [np.full(d.shape, s.value, dtype=np.uint64) if isinstance(s, Imm) else regs[s.n] for s in i.srcs]
        if i.op is Op.CLZ:
            _, exp = np.frexp(v[0].astype(np.float64))  # exact for integers below 2^53
            r = (32 - exp).astype(np.uint64)
        elif i.op is Op.SHL:
            r = np.where(v[1] >= 32, 0, (v[0] << np.minimum(v[1], 31)) & mask)
        elif i.op is Op.SHR_U:
            r = np.where(v[1] >= 32, 0, v[0] >> np.minimum(v[1], 31))
        elif i.op is Op.XOR:
            r = v[0] ^ v[1]
        elif i.op is Op.ADD:
            r = (v[0] + v[1]) & mask
        elif i.op is Op.SUB:
            r = (v[0] - v[1]) & mask
        elif i.op is Op.MUL:
            r = (v[0] * v[1]) & mask
        elif i.op is Op.MULHI_U:
            r = (v[0] * v[1]) >> np.uint64(32)
        elif i.op is Op.MOV:
            r = v[0]
        else:
            raise AssertionError(f"no vector form for {i}")
        regs[i.dst.n] = r.astype(np.uint64)
    m = regs["out"]
    prod = d * m
    q = np.uint64(M) // d
    two32 = np.uint64(1 << 32)
    ok = (prod <= two32) & (q * (two32 - np.minimum(prod, two32)) <= two32)
    return [int(x) for x in d[~ok][:10]]


def test_reciprocal_structured_divisors():
    """Every d below 2^20, the ends of every power-of-two band, divisors of 2^32 +- 1."""
    ds = set(range(1, 1 << 20))
    for k in range(33):
        ds.update(range(max(1, (1 << k) - 4096), min(1 << 32, (1 << k) + 4096)))
    for p in (3, 5, 17, 257, 65537, 641, 6700417, 3 * 5 * 17 * 257, 65537 * 257, 65537 * 17 * 5 * 3):
        ds.update(m * p for m in range(1, 4096) if m * p <= M)
    ds.update(r.getrandbits(32) or 1 for r in [random.Random(7)] for _ in range(200_000))
    assert _check_reciprocals(sorted(ds)) == []


@pytest.mark.skipif(not os.environ.get("QGPU_DIV_EXHAUSTIVE"), reason="set QGPU_DIV_EXHAUSTIVE=1 (minutes)")
def test_reciprocal_every_divisor():
    step = 1 << 24
    for lo in range(1, 1 << 32, step):
        assert _check_reciprocals(range(lo, min(lo + step, 1 << 32))) == []


# --- through the whole compiler -------------------------------------------------------------------

DIV_KERNEL = """
__global__ void k(const int* a, const int* b, int* out, const unsigned* ua, const unsigned* ub) {
    int i = threadIdx.x;
    out[4 * i + 0] = a[i] / b[i];
    out[4 * i + 1] = a[i] % b[i];
    out[4 * i + 2] = ua[i] / ub[i];
    out[4 * i + 3] = ua[i] % ub[i];
}
"""


def test_cuda_kernel_has_no_divide_and_is_exact():
    prog = compile_cuda(DIV_KERNEL, "div_rt.cu")
    ops = [i.op for blk in prog.blocks for i in blk.instrs]
    assert not DIVREM_OPS & set(ops) and Op.MULHI_U in ops
    rng = random.Random(3)
    values = EDGES + [rng.getrandbits(32) for _ in range(40)]
    for start in range(0, 160, 8):
        a = [values[(start + j) % len(values)] for j in range(8)]
        b = [values[(start * 7 + 5 * j + 3) % len(values)] for j in range(8)]
        args = {"a": ",".join(str(s32(x)) for x in a), "b": ",".join(str(s32(x)) for x in b),
                "ua": ",".join(map(str, a)), "ub": ",".join(map(str, b)), "out": "zeros:32"}
        got = run(prog, build_launch(prog, 1, 8, args)).arrays["out"]
        want = []
        for x, y in zip(a, b):
            want += [expected("div", True, x, y), expected("rem", True, x, y),
                     expected("div", False, x, y), expected("rem", False, x, y)]
        assert [g & M for g in got] == want


def test_no_sample_program_divides():
    """nvcc's PTX for the samples has div/rem (div_var, gcd, ...); the ROM has none."""
    with_div = 0
    for path in SAMPLES:
        if "/" not in path.read_text() and "%" not in path.read_text():
            continue
        prog = compile_file(path)
        assert not any(i.op in DIVREM_OPS for blk in prog.blocks for i in blk.instrs), path.name
        with_div += any(line.lstrip().startswith(("div.", "rem.")) for line in prog.ptx.splitlines())
    assert with_div >= 5


XY = [ParamInfo("x", "unsigned", False, True), ParamInfo("y", "unsigned", False, True)]
LOAD_XY = """
    ld.param.u64 %rd1, [k_param_0];
    cvta.to.global.u64 %rd1, %rd1;
    ld.param.u32 %r1, [k_param_1];
    ld.param.u32 %r2, [k_param_2];"""


@pytest.mark.parametrize("t,x,y", [("s16", -7, 2), ("s16", -32768, -1), ("u16", 65535, 7), ("s16", 300, 0),
                                   ("u16", 9, 0)])
def test_narrow_types(t, x, y):
    """16-bit division divides the extended values (PTX keeps 16 bits; we keep the extended 32)."""
    body = LOAD_XY + f"""
    cvt.u16.u32 %rs1, %r1;
    cvt.u16.u32 %rs2, %r2;
    div.{t} %rs3, %rs1, %rs2;
    rem.{t} %rs4, %rs1, %rs2;
    cvt.{'s32.s16' if t == 's16' else 'u32.u16'} %r3, %rs3;
    cvt.{'s32.s16' if t == 's16' else 'u32.u16'} %r4, %rs4;
    st.global.u32 [%rd1], %r3;
    st.global.u32 [%rd1+4], %r4;
    ret;"""
    got = run_out(body, 2, extra_params=XY, args={"x": str(x & M), "y": str(y & M)})
    signed = t == "s16"
    a, b = (x & 0xFFFF, y & 0xFFFF)
    if signed:
        a, b = (a - 0x10000 if a >> 15 else a) & M, (b - 0x10000 if b >> 15 else b) & M
    q, r = expected("div", signed, a, b), expected("rem", signed, a, b)
    ext = (lambda v: (v & 0xFFFF) - 0x10000 if v & 0x8000 else v & 0xFFFF) if signed else (lambda v: v & 0xFFFF)
    assert got == [ext(q) & M, ext(r) & M]


@pytest.mark.parametrize("x,y", [(100, 7), (5, 0), (0xFFFFFFFF, 5), (9, 3)])
def test_reciprocal_shared_until_the_divisor_changes(x, y):
    body = LOAD_XY + """
    div.u32 %r3, %r1, %r2;
    rem.u32 %r4, %r1, %r2;
    add.s32 %r2, %r2, 1;
    div.u32 %r5, %r1, %r2;
    st.global.u32 [%rd1], %r3;
    st.global.u32 [%rd1+4], %r4;
    st.global.u32 [%rd1+8], %r5;
    ret;"""
    decl = ",\n".join(f".param .u{64 if i == 0 else 32} k_param_{i}" for i in range(3))
    prog = compile_ptx(kernel_ptx(body, decl), OUT + XY)
    assert sum(i.op is Op.CLZ for b in prog.blocks for i in b.instrs) == 2  # two divisors, not three divisions
    got = run_out(body, 3, extra_params=XY, args={"x": str(x), "y": str(y)})
    y1 = (y + 1) & M
    assert got == [expected("div", False, x, y), expected("rem", False, x, y), expected("div", False, x, y1)]


@pytest.mark.parametrize("x,y", [(100, 7), (-100 & M, 7), (100, 5), (7, 0)])
def test_guarded_division_guards_only_its_result(x, y):
    body = LOAD_XY + """
    mov.u32 %r3, 777;
    setp.ne.u32 %p1, %r2, 5;
    @%p1 div.s32 %r3, %r1, %r2;
    st.global.u32 [%rd1], %r3;
    ret;"""
    decl = ",\n".join(f".param .u{64 if i == 0 else 32} k_param_{i}" for i in range(3))
    prog = compile_ptx(kernel_ptx(body, decl), OUT + XY)
    assert sum(i.guard is not None for b in prog.blocks for i in b.instrs) == 1
    got = run_out(body, 1, extra_params=XY, args={"x": str(x), "y": str(y)})
    assert got == [777 if y == 5 else expected("div", True, x, y)]
