"""C int32 semantics, PTX shuffle rules and the reference registry shared by
tests/suite/refs.py and tests/suite2/refs.py.

Plain Python written from the CUDA/PTX definitions; imports nothing from qgpu.
"""

from __future__ import annotations

from typing import Callable

MASK32 = 0xFFFFFFFF
INT_MIN = -(1 << 31)
INT_MAX = (1 << 31) - 1


# ---------------------------------------------------------------------------
# int32 / uint32 helpers
# ---------------------------------------------------------------------------

def u32(x: int) -> int:
    return x & MASK32


def s32(x: int) -> int:
    x &= MASK32
    return x - (1 << 32) if x & 0x80000000 else x


def sdiv(a: int, b: int) -> int:
    a, b = s32(a), s32(b)
    assert b != 0 and not (a == INT_MIN and b == -1)
    q = abs(a) // abs(b)
    return s32(q if (a < 0) == (b < 0) else -q)


def srem(a: int, b: int) -> int:
    a, b = s32(a), s32(b)
    return s32(a - sdiv(a, b) * b)


def udiv(a: int, b: int) -> int:
    assert u32(b) != 0
    return u32(a) // u32(b)


def urem(a: int, b: int) -> int:
    assert u32(b) != 0
    return u32(a) % u32(b)


def sar(x: int, k: int) -> int:
    assert 0 <= k < 32
    return s32(x) >> k


def shl(x: int, k: int) -> int:
    assert 0 <= k < 32
    return u32(u32(x) << k)


def shr(x: int, k: int) -> int:
    assert 0 <= k < 32
    return u32(x) >> k


def popc(x: int) -> int:
    return bin(u32(x)).count("1")


def clz(x: int) -> int:
    x = u32(x)
    return 32 - x.bit_length()


def ffs(x: int) -> int:
    """__ffs: 1-based position of the least significant set bit, 0 for 0."""
    x = u32(x)
    return (x & -x).bit_length()


def brev(x: int) -> int:
    return int(format(u32(x), "032b")[::-1], 2)


def sext(x: int, bits: int) -> int:
    x &= (1 << bits) - 1
    return x - (1 << bits) if x >> (bits - 1) else x


def mul24(a: int, b: int) -> int:
    """mul24.lo.s32: low 32 bits of the product of the sign-extended low 24 bits."""
    return s32(sext(a, 24) * sext(b, 24))


def umul24(a: int, b: int) -> int:
    return u32((u32(a) & 0xFFFFFF) * (u32(b) & 0xFFFFFF))


def mulhi(a: int, b: int) -> int:
    return s32((s32(a) * s32(b)) >> 32)


def umulhi(a: int, b: int) -> int:
    return (u32(a) * u32(b)) >> 32


def prmt(a: int, b: int, sel: int) -> int:
    """PTX prmt.b32 default mode (= __byte_perm(a, b, sel)): bytes 0-3 from a, 4-7 from b."""
    src = u32(a) | (u32(b) << 32)
    r = 0
    for n in range(4):
        nib = (u32(sel) >> (4 * n)) & 0xF
        byte = (src >> (8 * (nib & 7))) & 0xFF
        if nib & 8:  # sign-replicate mode of the selector's msb
            byte = 0xFF if byte & 0x80 else 0
        r |= byte << (8 * n)
    return r


def funnel_l(lo: int, hi: int, sh: int, clamp: bool) -> int:
    sh = u32(sh)
    s = min(sh, 32) if clamp else sh & 31
    return u32(((u32(hi) << 32 | u32(lo)) << s) >> 32)


def funnel_r(lo: int, hi: int, sh: int, clamp: bool) -> int:
    sh = u32(sh)
    s = min(sh, 32) if clamp else sh & 31
    return u32((u32(hi) << 32 | u32(lo)) >> s)


def rotl(x: int, k: int) -> int:
    assert 1 <= k <= 31
    return shl(x, k) | shr(x, 32 - k)


def rotr(x: int, k: int) -> int:
    assert 1 <= k <= 31
    return shr(x, k) | shl(x, 32 - k)


# Warp shuffles on the 32-lane identity (PTX shfl.sync), as CUDA's
# __shfl_*_sync(mask, var, b, width) calls them: c = ((32 - width) << 8) | clamp,
# clamp 0 for up and 0x1f otherwise.

def _shfl_src(mode: str, lane: int, b: int, width: int) -> int:
    seg = (32 - width) & 0x1F
    clamp = 0 if mode == "up" else 0x1F
    bval = u32(b) & 0x1F
    max_lane = (lane & seg) | (clamp & ~seg & 0x1F)
    min_lane = lane & seg
    if mode == "up":
        j = lane - bval
        ok = j >= max_lane
    elif mode == "down":
        j = lane + bval
        ok = j <= max_lane
    elif mode == "bfly":
        j = lane ^ bval
        ok = j <= max_lane
    else:  # idx
        j = min_lane | (bval & ~seg & 0x1F)
        ok = j <= max_lane
    return j if ok else lane


def shfl(vals: dict[int, int], mode: str, lane: int, b: int, width: int) -> int:
    """Value a lane receives; ``vals`` maps laneid -> value of the participating lanes."""
    return vals[_shfl_src(mode, lane, b, width)]


# ---------------------------------------------------------------------------
# Registration: declared types of the pointer parameters
# ---------------------------------------------------------------------------

def make_registry() -> tuple[dict[str, Callable], Callable]:
    """A fresh (REFS, ref) pair for one refs module."""
    refs: dict[str, Callable] = {}

    def ref(**types: str):
        """Register a reference. ``types`` lists every pointer parameter: 's' (int) or 'u' (unsigned)."""
        return _decorator(refs, types)

    return refs, ref


def _decorator(refs: dict[str, Callable], types: dict[str, str]):
    def deco(fn):
        def run(args, grid, block):
            a = {k: (list(v) if isinstance(v, list) else v) for k, v in args.items()}
            for k, t in types.items():
                conv = s32 if t == "s" else u32
                a[k] = [conv(x) for x in a[k]]
            outs = fn(a, grid, block) or {}
            res = {}
            for k, t in types.items():
                conv = s32 if t == "s" else u32
                res[k] = [conv(x) for x in outs.get(k, a[k])]
            return res

        run.__name__ = fn.__name__
        refs[fn.__name__.removeprefix("ref_")] = run
        return run

    return deco


def _scalar(a, name):
    return s32(a[name])
