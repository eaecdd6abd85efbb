"""Arithmetic meaning of every ALU opcode, on 32-bit unsigned bit patterns.

These follow PTX's integer semantics on NVIDIA hardware: two's complement
wrap-around, C-style truncating division, clamped shift amounts. Values travel
as Python ints in ``0 .. 2**32-1``; :func:`s32` views one as signed.
"""

from __future__ import annotations

from typing import Callable

from compiler.machine.isa import Op

MASK = 0xFFFFFFFF


def u32(x: int) -> int:
    return x & MASK


def s32(x: int) -> int:
    x &= MASK
    return x - (1 << 32) if x & 0x80000000 else x


def _div_s(a: int, b: int) -> int:
    a, b = s32(a), s32(b)
    if b == 0:
        # -1 (all ones) for every a, as an NVIDIA H200 computes it (nvcc 13.0, sm_90:
        # tests/suite3/k65_div_zero.cu in tests/hw/recorded/); not 1 for a < 0, which is
        # what applying the sign of a XOR b to an unsigned 0xffffffff would give.
        return MASK
    q = abs(a) // abs(b)
    return u32(-q if (a < 0) != (b < 0) else q)


def _rem_s(a: int, b: int) -> int:
    a, b = s32(a), s32(b)
    if b == 0:
        return u32(a)
    r = abs(a) % abs(b)
    return u32(-r if a < 0 else r)


def _div_u(a: int, b: int) -> int:
    return MASK if b == 0 else a // b


def _rem_u(a: int, b: int) -> int:
    return a if b == 0 else a % b


def _shr_s(a: int, b: int) -> int:
    return u32(s32(a) >> min(b, 31))


def _clz(a: int) -> int:
    return 32 - a.bit_length()


def _brev(a: int) -> int:
    return int(f"{a:032b}"[::-1], 2)


def prmt(a: int, b: int, c: int) -> int:
    """PTX ``prmt.b32`` default mode: bytes of {b, a} (b high) picked by the 4 nibbles of c.

    Each selector nibble's low 3 bits pick a byte 0..7; its bit 3 asks to replicate
    that byte's sign bit instead.
    """
    pool = ((b & MASK) << 32) | (a & MASK)
    out = 0
    for i in range(4):
        sel = (c >> (4 * i)) & 0xF
        byte = (pool >> (8 * (sel & 7))) & 0xFF
        if sel & 8:
            byte = 0xFF if byte & 0x80 else 0
        out |= byte << (8 * i)
    return out


ALU: dict[Op, Callable[..., int]] = {
    Op.MOV: lambda a: a,
    Op.ADD: lambda a, b: u32(a + b),
    Op.SUB: lambda a, b: u32(a - b),
    Op.MUL: lambda a, b: u32(a * b),
    Op.MULHI_S: lambda a, b: u32((s32(a) * s32(b)) >> 32),
    Op.MULHI_U: lambda a, b: u32((a * b) >> 32),
    Op.DIV_S: _div_s,
    Op.DIV_U: _div_u,
    Op.REM_S: _rem_s,
    Op.REM_U: _rem_u,
    Op.MIN_S: lambda a, b: u32(min(s32(a), s32(b))),
    Op.MIN_U: min,
    Op.MAX_S: lambda a, b: u32(max(s32(a), s32(b))),
    Op.MAX_U: max,
    Op.ABS: lambda a: u32(abs(s32(a))),
    Op.NEG: lambda a: u32(-a),
    Op.AND: lambda a, b: a & b,
    Op.OR: lambda a, b: a | b,
    Op.XOR: lambda a, b: a ^ b,
    Op.NOT: lambda a: u32(~a),
    Op.SHL: lambda a, b: 0 if b >= 32 else u32(a << b),
    Op.SHR_U: lambda a, b: 0 if b >= 32 else a >> b,
    Op.SHR_S: _shr_s,
    Op.POPC: lambda a: bin(a).count("1"),
    Op.CLZ: _clz,
    Op.BREV: _brev,
    Op.PRMT: prmt,
}


def compare(cmp: str, a: int, b: int) -> bool:
    """SETP comparisons: eq ne lt le gt ge are signed, lo ls hi hs unsigned."""
    if cmp in ("lt", "le", "gt", "ge"):
        a, b = s32(a), s32(b)
    return {
        "eq": a == b, "ne": a != b,
        "lt": a < b, "le": a <= b, "gt": a > b, "ge": a >= b,
        "lo": a < b, "ls": a <= b, "hi": a > b, "hs": a >= b,
    }[cmp]


def atomic(op: str, old: int, val: int, val2: int = 0) -> int:
    """New memory word for ``atom.OP`` given the old word; ``val2`` is the swap value of cas."""
    if op == "add":
        return u32(old + val)
    if op == "min.s":
        return u32(min(s32(old), s32(val)))
    if op == "min.u":
        return min(old, val)
    if op == "max.s":
        return u32(max(s32(old), s32(val)))
    if op == "max.u":
        return max(old, val)
    if op == "exch":
        return val
    if op == "cas":
        return val2 if old == val else old
    if op == "and":
        return old & val
    if op == "or":
        return old | val
    if op == "xor":
        return old ^ val
    if op == "inc":
        return 0 if old >= val else old + 1
    if op == "dec":
        return val if (old == 0 or old > val) else old - 1
    raise ValueError(f"unknown atomic op {op}")
