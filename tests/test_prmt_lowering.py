"""``prmt`` expanded into shifts, masks and ORs (compiler/isel_prmt.py).

The emitted sequences are run by a small evaluator over the machine's op semantics and compared
with ``ref_support.prmt``, an independent Python model of ``__byte_perm``. Whole kernels that use
``__byte_perm`` (tests/suite/byte_perm.cu, suite2/byte_simd.cu, suite3/k20_byteperm.cu) are
compared with their references by tests/test_kernels.py.
"""

import random

import pytest

from compiler.isel_prmt import emit_prmt
from compiler.machine.isa import Guard, Imm, Op, Pred, Reg
from compiler.machine.semantics import ALU, compare
from ref_support import prmt as ref_prmt


class _Ctx:
    """Collects what the lowering emits; temporaries are fresh registers and predicates."""

    def __init__(self):
        self.out, self.n, self.p = [], 10, 0

    def emit(self, op, dst=None, srcs=(), mod="", guard=None, dst2=None):
        self.out.append((op, dst, tuple(srcs), mod, guard))

    def temp(self):
        self.n += 1
        return Reg(self.n)

    def temp_pred(self):
        self.p += 1
        return Pred(self.p)


def _run(code, regs: dict) -> dict:
    def val(x):
        return x.value if isinstance(x, Imm) else regs[x]

    for op, dst, srcs, mod, _ in code:
        if op is Op.SETP:
            regs[dst] = compare(mod, val(srcs[0]), val(srcs[1]))
        elif op is Op.SELP:
            regs[dst] = val(srcs[0]) if regs[srcs[2]] else val(srcs[1])
        elif op is Op.MOV:
            regs[dst] = val(srcs[0])
        else:
            regs[dst] = ALU[op](*(val(s) for s in srcs)) & 0xFFFFFFFF
    return regs


A, B, S, D = Reg(1), Reg(2), Reg(3), Reg(4)


def _lower(sel) -> list:
    c = _Ctx()
    emit_prmt(c, D, A, B, sel)
    return c.out


def test_every_constant_selector():
    rng = random.Random(5)
    longest = 0
    for sel in range(1 << 16):
        code = _lower(Imm(sel))
        longest = max(longest, len(code))
        a, b = rng.getrandbits(32), rng.getrandbits(32)
        assert _run(code, {A: a, B: b})[D] == ref_prmt(a, b, sel), hex(sel)
    assert longest == 15


@pytest.mark.parametrize("sel,count", [(0x3210, 1), (0x7654, 1), (0x5410, 3), (0x7632, 3), (0x0123, 9)])
def test_common_selectors_are_short(sel, count):
    assert len(_lower(Imm(sel))) == count


def test_selector_in_a_register():
    rng = random.Random(6)
    code = _lower(S)
    assert len(code) == 58
    edges = [0, 0xFFFFFFFF, 0x80808080, 0x7F7F7F7F]
    for _ in range(3000):
        a, b = (rng.choice(edges) if rng.random() < 0.2 else rng.getrandbits(32) for _ in range(2))
        sel = rng.getrandbits(32)  # nibbles 4..7 must be ignored
        assert _run(code, {A: a, B: b, S: sel})[D] == ref_prmt(a, b, sel), (hex(a), hex(b), hex(sel))


def test_operand_aliasing_the_destination():
    """prmt r1, r1, r2, r3: only the last instruction writes the destination."""
    for sel in (Imm(0x0123), S):
        c = _Ctx()
        emit_prmt(c, A, A, B, sel)
        assert [ins[1] for ins in c.out].count(A) == 1 and c.out[-1][1] == A
        a, b, s = 0x12345678, 0x9ABCDEF0, 0x4172
        got = _run(c.out, {A: a, B: b, S: s})[A]
        assert got == ref_prmt(a, b, sel.value if isinstance(sel, Imm) else s)


def test_only_the_final_write_is_guarded():
    g = Guard(Pred(0), False)
    for sel in (Imm(0x5410), S):
        c = _Ctx()
        emit_prmt(c, D, A, B, sel, g)
        assert [ins[4] for ins in c.out] == [None] * (len(c.out) - 1) + [g]


@pytest.mark.parametrize("path", ["suite2/byte_simd.cu", "suite3/k20_byteperm.cu", "suite/byte_perm.cu"])
def test_kernels_expand_prmt(path):
    """On the interpreter's default machine every kernel of the tests that uses ``__byte_perm`` fits
    with its ``prmt`` expanded (no machine ``prmt`` left for the model to lack)."""
    from compiler.kernel_compiler import compile_file
    from conftest import ROOT

    prog = compile_file(str(ROOT / "tests" / path))
    assert "prmt." in prog.ptx
    assert not any(i.op is Op.PRMT for blk in prog.blocks for i in blk.instrs)


def test_a_constant_moved_into_a_register_is_a_constant_selector():
    """nvcc writes ``__byte_perm(a, b, 0x5410)`` as ``mov.u32 %r8, 21520; prmt.b32 ..., %r8``. byte_perm.cu
    has four such selectors and one computed at run time: expanded as selectors in registers they
    would be 5 x 58 instructions; as constants the whole kernel stays under two such expansions."""
    import re

    from compiler.kernel_compiler import compile_file
    from conftest import ROOT

    prog = compile_file(str(ROOT / "tests" / "suite" / "byte_perm.cu"))
    moved = set(re.findall(r"mov\.u32\s+(%r\d+), \d+;", prog.ptx))
    used = re.findall(r"prmt\.b32\s+[^;]*, (%r\d+);", prog.ptx)
    assert sum(r in moved for r in used) == 4, used
    assert sum(len(blk.instrs) for blk in prog.blocks) < 2 * 58
