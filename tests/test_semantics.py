"""ALU semantics against hand-worked values (what PTX on NVIDIA hardware defines)."""

from __future__ import annotations

import pytest

from compiler.machine.isa import Op
from compiler.machine.semantics import ALU, atomic, compare, prmt

M = 0xFFFFFFFF
INT_MIN = 0x80000000


def u(x: int) -> int:
    return x & M


CASES = [
    (Op.ADD, (0x7FFFFFFF, 1), INT_MIN),
    (Op.SUB, (0, 1), M),
    (Op.MUL, (65536, 65536), 0),
    (Op.MUL, (u(-3), 7), u(-21)),
    (Op.MULHI_S, (u(-2), 3), M),                 # -6 = 0xffffffff_fffffffa
    (Op.MULHI_U, (M, M), 0xFFFFFFFE),            # (2^32-1)^2 = 0xfffffffe_00000001
    (Op.MULHI_S, (INT_MIN, INT_MIN), 0x40000000),  # 2^62
    (Op.DIV_S, (u(-7), 2), u(-3)),
    (Op.REM_S, (u(-7), 2), u(-1)),
    (Op.DIV_S, (7, u(-2)), u(-3)),
    (Op.REM_S, (7, u(-2)), 1),
    (Op.DIV_S, (INT_MIN, M), INT_MIN),
    (Op.REM_S, (INT_MIN, M), 0),
    (Op.DIV_U, (u(-7), 2), 0x7FFFFFFC),
    (Op.REM_U, (u(-7), 2), 1),
    (Op.DIV_U, (5, 0), M),
    (Op.REM_U, (5, 0), 5),
    (Op.DIV_S, (5, 0), M),
    (Op.DIV_S, (u(-5), 0), M),  # -1 for every dividend, as an H200 gives (tests/hw/recorded)
    (Op.MIN_S, (u(-1), 1), u(-1)),
    (Op.MIN_U, (u(-1), 1), 1),
    (Op.MAX_S, (u(-1), 1), 1),
    (Op.MAX_U, (u(-1), 1), M),
    (Op.ABS, (INT_MIN,), INT_MIN),
    (Op.ABS, (u(-5),), 5),
    (Op.NEG, (INT_MIN,), INT_MIN),
    (Op.NOT, (0,), M),
    (Op.SHL, (1, 31), INT_MIN),
    (Op.SHL, (1, 32), 0),
    (Op.SHL, (1, 200), 0),
    (Op.SHR_U, (INT_MIN, 31), 1),
    (Op.SHR_U, (INT_MIN, 32), 0),
    (Op.SHR_S, (INT_MIN, 31), M),
    (Op.SHR_S, (INT_MIN, 40), M),
    (Op.SHR_S, (0x40000000, 40), 0),
    (Op.POPC, (M,), 32),
    (Op.POPC, (0x0F0F,), 8),
    (Op.CLZ, (0,), 32),
    (Op.CLZ, (1,), 31),
    (Op.CLZ, (INT_MIN,), 0),
    (Op.BREV, (1,), INT_MIN),
    (Op.BREV, (0x0000FFFF,), 0xFFFF0000),
    (Op.BREV, (0x12345678,), 0x1E6A2C48),
]


@pytest.mark.parametrize("op,args,want", CASES, ids=[f"{c[0].value}{c[1]}" for c in CASES])
def test_alu(op, args, want):
    assert ALU[op](*args) == want


def test_prmt():
    a, b = 0x33221100, 0x77665544
    assert prmt(a, b, 0x3210) == a
    assert prmt(a, b, 0x7654) == b
    assert prmt(a, b, 0x0123) == 0x00112233   # byte reverse of a
    assert prmt(0x80, 0, 0x8888) == M          # sign replicate of byte 0 (0x80)
    assert prmt(0x7F, 0, 0x8880) == 0x7F       # byte 0 then three sign copies of 0x7f


def test_compare_signed_vs_unsigned():
    assert compare("lt", u(-1), 0) and not compare("lo", u(-1), 0)
    assert compare("hi", u(-1), 0) and not compare("gt", u(-1), 0)
    assert compare("ls", 3, 3) and compare("ge", 3, 3) and compare("ne", 1, 2)


def test_atomics():
    assert atomic("add", M, 1) == 0
    assert atomic("max.s", u(-5), 3) == 3 and atomic("max.u", u(-5), 3) == u(-5)
    assert atomic("min.s", u(-5), 3) == u(-5) and atomic("min.u", u(-5), 3) == 3
    assert atomic("cas", 7, 7, 9) == 9 and atomic("cas", 7, 8, 9) == 7
    assert atomic("inc", 5, 5) == 0 and atomic("inc", 4, 5) == 5
    assert atomic("dec", 0, 5) == 5 and atomic("dec", 6, 5) == 5 and atomic("dec", 3, 5) == 2
    assert atomic("exch", 1, 2) == 2 and atomic("xor", 6, 3) == 5
