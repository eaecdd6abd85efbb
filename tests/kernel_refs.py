"""Plain-Python reference implementations of the kernels in samples/*.cu.

Each reference is written independently of the CUDA source structure where
that is natural (a dot product is computed directly, a sort is a sort), and
simulates threads/lanes only where the kernel's result depends on it (warp
shuffles with out-of-range sources, per-thread loop counts, ...).

Every reference has the signature::

    fn(args: dict[str, list[int] | int], grid: int, block: int)
        -> dict[str, list[int]]

and returns the final contents of EVERY pointer parameter of the kernel
(inputs included), as Python ints in the range of the declared element type
(signed int32 for ``int``, 0..2**32-1 for ``unsigned``).

``REFS`` maps the sample file stem to its reference. ``parse_header`` is a
small independent parser of the ``// qgpu:`` header lines of a sample.

No imports from the project and no numpy: only the standard library.
"""

from __future__ import annotations

import re
import shlex
from typing import Callable

# ---------------------------------------------------------------------------
# CUDA int32 / uint32 semantics
# ---------------------------------------------------------------------------

MASK32 = 0xFFFFFFFF
INT_MIN = -(1 << 31)
INT_MAX = (1 << 31) - 1


def u32(x: int) -> int:
    """Reinterpret (wrap) x as an unsigned 32-bit value."""
    return x & MASK32


def s32(x: int) -> int:
    """Reinterpret (wrap) x as a signed 32-bit two's-complement value."""
    x &= MASK32
    return x - (1 << 32) if x & 0x80000000 else x


def add(a: int, b: int) -> int:
    return s32(a + b)


def sub(a: int, b: int) -> int:
    return s32(a - b)


def mul(a: int, b: int) -> int:
    """mul.lo.s32: low 32 bits of the product, as signed."""
    return s32(s32(a) * s32(b))


def neg(a: int) -> int:
    return s32(-a)


def umul(a: int, b: int) -> int:
    return u32(u32(a) * u32(b))


def uadd(a: int, b: int) -> int:
    return u32(u32(a) + u32(b))


def usub(a: int, b: int) -> int:
    return u32(u32(a) - u32(b))


def sdiv(a: int, b: int) -> int:
    """C signed division: truncates toward zero."""
    a, b = s32(a), s32(b)
    if b == 0:
        raise ZeroDivisionError("CUDA int division by zero is undefined")
    q = abs(a) // abs(b)
    if (a < 0) != (b < 0):
        q = -q
    return s32(q)


def srem(a: int, b: int) -> int:
    """C signed remainder: has the sign of the dividend."""
    a, b = s32(a), s32(b)
    if b == 0:
        raise ZeroDivisionError("CUDA int remainder by zero is undefined")
    r = abs(a) % abs(b)
    return s32(-r if a < 0 else r)


def udiv(a: int, b: int) -> int:
    a, b = u32(a), u32(b)
    if b == 0:
        raise ZeroDivisionError("CUDA unsigned division by zero is undefined")
    return a // b


def urem(a: int, b: int) -> int:
    a, b = u32(a), u32(b)
    if b == 0:
        raise ZeroDivisionError("CUDA unsigned remainder by zero is undefined")
    return a % b


def _check_shift(n: int) -> int:
    if not 0 <= n <= 31:
        raise ValueError(f"shift amount {n} outside 0..31 (UB in CUDA C++)")
    return n


def shl(a: int, n: int) -> int:
    """Left shift of the 32-bit pattern, result as signed int."""
    return s32(u32(a) << _check_shift(n))


def ushl(a: int, n: int) -> int:
    """Left shift of the 32-bit pattern, result as unsigned int."""
    return u32(u32(a) << _check_shift(n))


def sar(a: int, n: int) -> int:
    """Arithmetic (sign-filling) right shift of a signed int."""
    return s32(a) >> _check_shift(n)  # Python >> on negatives is arithmetic


def shr(a: int, n: int) -> int:
    """Logical (zero-filling) right shift of an unsigned int."""
    return u32(a) >> _check_shift(n)


def band(a: int, b: int) -> int:
    return s32(u32(a) & u32(b))


def bor(a: int, b: int) -> int:
    return s32(u32(a) | u32(b))


def bxor(a: int, b: int) -> int:
    return s32(u32(a) ^ u32(b))


def bnot(a: int) -> int:
    return s32(~u32(a))


def mulhi(a: int, b: int) -> int:
    """__mulhi: high 32 bits of the signed 64-bit product."""
    return s32((s32(a) * s32(b)) >> 32)


def umulhi(a: int, b: int) -> int:
    """__umulhi: high 32 bits of the unsigned 64-bit product."""
    return (u32(a) * u32(b)) >> 32


def popc(x: int) -> int:
    return bin(u32(x)).count("1")


def clz(x: int) -> int:
    return 32 - u32(x).bit_length()


def brev(x: int) -> int:
    return int(format(u32(x), "032b")[::-1], 2)


def ult(a: int, b: int) -> bool:
    return u32(a) < u32(b)


def slt(a: int, b: int) -> bool:
    return s32(a) < s32(b)


def cdiv(a: int, b: int) -> int:
    """Ceiling division for non-negative ints (warp counts)."""
    return -(-a // b)


# ---------------------------------------------------------------------------
# Helpers
# ---------------------------------------------------------------------------

def _ints(xs) -> list[int]:
    return [s32(x) for x in xs]


def _uints(xs) -> list[int]:
    return [u32(x) for x in xs]


def _copy(args: dict, int_names=(), uint_names=()) -> dict[str, list[int]]:
    """Fresh copies of pointer arguments, normalised to their element type."""
    res: dict[str, list[int]] = {}
    for n in int_names:
        res[n] = _ints(args[n])
    for n in uint_names:
        res[n] = _uints(args[n])
    return res


# ---------------------------------------------------------------------------
# References, one per sample
# ---------------------------------------------------------------------------

def ref_dot(args, grid, block):
    m = _copy(args, ("a", "b", "out"))
    n = args["n"]
    total = 0
    for x, y in zip(m["a"][:n], m["b"][:n]):
        total = add(total, mul(x, y))
    m["out"][0] = add(m["out"][0], total)
    return m


def ref_vector_add(args, grid, block):
    m = _copy(args, ("a", "b", "out"))
    n = args["n"]
    for i in range(min(n, grid * block)):
        m["out"][i] = add(m["a"][i], m["b"][i])
    return m


def ref_arith_mix(args, grid, block):
    m = _copy(args, ("a", "b", "out"))
    for i in range(grid * block):
        x, y = m["a"][i], m["b"][i]
        m["out"][4 * i + 0] = s32(x + 3 * y)
        m["out"][4 * i + 1] = s32(x - y)
        m["out"][4 * i + 2] = s32(7 - x * y)
        m["out"][4 * i + 3] = s32((x + 1) * (y - 2) - x)
    return m


def ref_overflow_wrap(args, grid, block):
    m = _copy(args, ("a", "b", "out"), ("u", "uout"))
    for i in range(grid * block):
        x, y = m["a"][i], m["b"][i]
        m["out"][4 * i + 0] = add(x, y)
        m["out"][4 * i + 1] = sub(x, y)
        m["out"][4 * i + 2] = mul(x, y)
        m["out"][4 * i + 3] = neg(x)
        v = m["u"][i]
        m["uout"][i] = u32(v * v + v + 1)
    return m


def ref_mulhi(args, grid, block):
    m = _copy(args, ("a", "b", "out"), ("ua", "ub", "uhi"))
    for i in range(grid * block):
        x, y = m["a"][i], m["b"][i]
        full = x * y  # exact 64-bit signed product
        m["out"][2 * i + 0] = s32(full >> 32)
        m["out"][2 * i + 1] = s32(full)
        m["uhi"][i] = umulhi(m["ua"][i], m["ub"][i])
    return m


def ref_div_const(args, grid, block):
    m = _copy(args, ("x", "out"))
    for i in range(grid * block):
        v = m["x"][i]
        res = [sdiv(v, 7), srem(v, 7), sdiv(v, 8), srem(v, 8),
               sdiv(v, -3), srem(v, -3)]
        m["out"][6 * i:6 * i + 6] = res
    return m


def ref_div_const_unsigned(args, grid, block):
    m = _copy(args, (), ("u", "out"))
    for i in range(grid * block):
        w = m["u"][i]
        m["out"][4 * i:4 * i + 4] = [w // 10, w % 10, w >> 4, w % 1000]
    return m


def ref_div_var(args, grid, block):
    m = _copy(args, ("a", "b", "qr"), ("ua", "ub", "uqr"))
    for i in range(grid * block):
        x, y = m["a"][i], m["b"][i]
        m["qr"][2 * i] = sdiv(x, y)
        m["qr"][2 * i + 1] = srem(x, y)
        p, d = m["ua"][i], m["ub"][i]
        m["uqr"][2 * i] = udiv(p, d)
        m["uqr"][2 * i + 1] = urem(p, d)
    return m


def ref_bit_ops(args, grid, block):
    m = _copy(args, ("x", "y", "s", "out"), ("uout",))
    for i in range(grid * block):
        v, w, n = m["x"][i], m["y"][i], m["s"][i]
        m["out"][6 * i:6 * i + 6] = [band(v, w), bor(v, w), bxor(v, w),
                                     bnot(v), shl(v, n), sar(v, n)]
        m["uout"][i] = shr(v, n)
    return m


def ref_shift_add(args, grid, block):
    m = _copy(args, ("a", "s", "out"), ())
    k = args["k"]
    for i in range(block):
        v, n = m["a"][i], m["s"][i]
        m["out"][i] = add(sub(shl(v, 3), sar(v, n)), k)
        m["out"][4 + i] = add(shr(v, n), i)
        m["out"][8 + i] = sub(sar(v, 2), block)
    return m


def ref_popc_clz_brev(args, grid, block):
    m = _copy(args, ("pop", "lz"), ("x", "rev"))
    for i in range(grid * block):
        v = m["x"][i]
        m["pop"][i] = popc(v)
        m["lz"][i] = clz(v)
        m["rev"][i] = brev(v)
    return m


def ref_byte_pack(args, grid, block):
    m = _copy(args, ("bytes", "parts"), ("words", "pw"))
    for i in range(grid * block):
        bs = m["bytes"][4 * i:4 * i + 4]
        # bytes are in 0..255 here; pack little-endian via int.from_bytes
        m["pw"][2 * i] = int.from_bytes(bytes(b & 0xFF for b in bs), "little")
        w = m["words"][i]
        le = w.to_bytes(4, "little")
        m["pw"][2 * i + 1] = int.from_bytes(le, "big")  # byte swap
        m["parts"][5 * i:5 * i + 4] = list(le)
        low = le[0]
        m["parts"][5 * i + 4] = low - 256 if low >= 128 else low
    return m


def ref_unsigned_cmp(args, grid, block):
    m = _copy(args, ("res",), ("a", "b", "ures"))
    for i in range(grid * block):
        x, y = m["a"][i], m["b"][i]
        m["res"][3 * i:3 * i + 3] = [int(ult(x, y)), int(slt(x, y)),
                                     sar(s32(x), 28)]
        m["ures"][2 * i] = abs(x - y)  # both already unsigned Python ints
        m["ures"][2 * i + 1] = shr(x, 28)
    return m


def ref_min_max_abs(args, grid, block):
    m = _copy(args, ("a", "b", "out"), ("ua", "ub", "uout"))
    for i in range(grid * block):
        x, y = m["a"][i], m["b"][i]
        m["out"][4 * i:4 * i + 4] = [min(x, y), max(x, y), s32(abs(x)),
                                     sorted((-10, x, 10))[1]]
        p, q = m["ua"][i], m["ub"][i]
        m["uout"][2 * i:2 * i + 2] = [min(p, q), max(p, q)]
    return m


def ref_select_ternary(args, grid, block):
    m = _copy(args, ("x", "out"))
    t = args["t"]
    for i in range(grid * block):
        v = m["x"][i]
        sign = (v > 0) - (v < 0)
        step = add(mul(3, v), 1) if srem(v, 2) != 0 else sdiv(v, 2)
        m["out"][3 * i:3 * i + 3] = [sign, step, s32(abs(v - t))]
    return m


def ref_divergence_nested(args, grid, block):
    m = _copy(args, ("in", "out"))
    for i in range(grid * block):
        x = m["in"][i]
        if 0 <= x < 10:
            r = x * 10 if x % 2 else x + 100
        elif x >= 10:
            r = min(x - 10, 50)
        elif x > -10:
            r = -x
        else:
            r = 333 if (-x) % 3 == 0 else -1
        m["out"][i] = s32(r)
    return m


def ref_early_return(args, grid, block):
    m = _copy(args, ("in", "out", "out2"))
    n = args["n"]
    for i in range(min(n, grid * block)):
        v = m["in"][i]
        if v == 0:
            m["out"][i] = -1
            continue
        m["out"][i] = sdiv(1000, v)
        if v >= 0:
            m["out2"][i] = mul(v, v)
    return m


def ref_switch_case(args, grid, block):
    m = _copy(args, ("op", "a", "b", "out"))
    for i in range(grid * block):
        op, x, y = m["op"][i], m["a"][i], m["b"][i]
        ops = {
            0: lambda: add(x, y),
            1: lambda: sub(x, y),
            2: lambda: mul(x, y),
            3: lambda: sdiv(x, y),
            4: lambda: srem(x, y),
            5: lambda: shl(x, y & 31),
            7: lambda: bxor(add(x, 100), y),
            8: lambda: bxor(x, y),
        }
        m["out"][i] = ops[op]() if op in ops else -1
    return m


def ref_loop_break_continue(args, grid, block):
    m = _copy(args, ("data", "sum", "cnt"))
    for i in range(grid * block):
        row = m["data"][8 * i:8 * i + 8]
        # prefix before the first negative value
        k = next((j for j, v in enumerate(row) if v < 0), len(row))
        kept = [v for v in row[:k] if v % 3 != 0]
        m["sum"][i] = s32(sum(kept))
        m["cnt"][i] = len(kept)
    return m


def ref_collatz(args, grid, block):
    m = _copy(args, ("in", "steps", "peak"))
    for i in range(grid * block):
        x = m["in"][i]
        seq = [x]
        while seq[-1] != 1:
            y = seq[-1]
            seq.append(3 * y + 1 if y % 2 else y // 2)
            if len(seq) > 10000:
                raise RuntimeError("collatz input too large for the sample")
        m["steps"][i] = len(seq) - 1
        m["peak"][i] = s32(max(seq))
    return m


def ref_nested_loops(args, grid, block):
    m = _copy(args, ("len", "a", "out"))
    a = m["a"]
    for i in range(grid * block):
        n = m["len"][i]
        acc = sum(a[j] * a[k + i] for j in range(n) for k in range(j + 1))
        m["out"][i] = s32(acc)
    return m


def ref_matmul(args, grid, block):
    m = _copy(args, ("A", "B", "C"))
    A = [m["A"][4 * r:4 * r + 4] for r in range(3)]
    B = [m["B"][3 * k:3 * k + 3] for k in range(4)]
    for r in range(3):
        for c in range(3):
            m["C"][3 * r + c] = s32(sum(A[r][k] * B[k][c] for k in range(4)))
    return m


def _gcd_steps(x: int, y: int) -> tuple[int, int]:
    n = 0
    while y != 0:
        x, y = y, srem(x, y)
        n += 1
    return x, n


def ref_gcd(args, grid, block):
    m = _copy(args, ("a", "b", "g", "l", "steps"))
    for i in range(grid * block):
        x, y = m["a"][i], m["b"][i]
        g, n = _gcd_steps(x, y)
        m["g"][i] = g
        m["l"][i] = 0 if g == 0 else mul(sdiv(x, g), y)
        m["steps"][i] = n
    return m


def ref_hash_mix(args, grid, block):
    m = _copy(args, (), ("seed", "out"))
    rounds = args["rounds"]
    for i in range(grid * block):
        h = m["seed"][i]
        for _ in range(rounds):
            h ^= ushl(h, 13)
            h ^= shr(h, 17)
            h ^= ushl(h, 5)
        h = umul(h, 2654435761)
        m["out"][i] = h ^ (h >> 16)
    return m


def ref_saturate_add(args, grid, block):
    m = _copy(args, ("a", "b", "out", "ovf"))
    for i in range(grid * block):
        exact = m["a"][i] + m["b"][i]  # unbounded Python sum
        m["out"][i] = max(INT_MIN, min(INT_MAX, exact))
        m["ovf"][i] = int(not INT_MIN <= exact <= INT_MAX)
    return m


def ref_shared_reverse(args, grid, block):
    m = _copy(args, ("in", "out"))
    for b in range(grid):
        seg = m["in"][b * block:(b + 1) * block]
        m["out"][b * block:(b + 1) * block] = seg[::-1]
    return m


def ref_tree_reduce(args, grid, block):
    m = _copy(args, ("in", "out"))
    vals = m["in"][:block]
    m["out"][0] = s32(sum(vals))
    m["out"][1] = max(vals)
    return m


def ref_multi_cta_reduce(args, grid, block):
    m = _copy(args, ("in", "partial", "total", "gmax", "gmin"))
    parts = [s32(sum(m["in"][b * block:(b + 1) * block])) for b in range(grid)]
    m["partial"][:grid] = parts
    m["total"][0] = s32(m["total"][0] + sum(parts))
    m["gmax"][0] = max([m["gmax"][0]] + parts)
    m["gmin"][0] = min([m["gmin"][0]] + parts)
    return m


def ref_atomics_global(args, grid, block):
    m = _copy(args, ("in", "hist", "total", "mx", "mn"), ("umx",))
    vals = m["in"][:grid * block]
    for v in vals:
        m["hist"][u32(v) % 4] += 1
    m["total"][0] = s32(m["total"][0] + sum(vals))
    m["mx"][0] = max([m["mx"][0]] + vals)
    m["mn"][0] = min([m["mn"][0]] + vals)
    m["umx"][0] = max([m["umx"][0]] + [u32(v) for v in vals])
    return m


def ref_atomics_shared(args, grid, block):
    m = _copy(args, ("in", "hist", "bmax", "bmin"))
    for b in range(grid):
        vals = m["in"][b * block:(b + 1) * block]
        hist = [0, 0, 0, 0]
        for v in vals:
            hist[u32(v) & 3] += 1
        m["hist"][4 * b:4 * b + 4] = hist
        m["bmax"][b] = max(vals)
        m["bmin"][b] = min(vals)
    return m


# --- warp shuffles: simulate the 4 lanes of one warp (width 4) ----------

def _shfl(vals: list[int], src_of) -> list[int]:
    """Generic shuffle: lane l reads lane src_of(l); an out-of-range source
    (None) makes the lane read its own value (PTX shfl semantics)."""
    out = []
    for lane, own in enumerate(vals):
        src = src_of(lane)
        out.append(own if src is None else vals[src])
    return out


def shfl_down(vals, delta, width=4):
    def src(l):
        j = l + delta
        return j if j // width == l // width and j < len(vals) else None
    return _shfl(vals, src)


def shfl_up(vals, delta, width=4):
    def src(l):
        j = l - delta
        return j if j >= 0 and j // width == l // width else None
    return _shfl(vals, src)


def shfl_xor(vals, mask, width=4):
    def src(l):
        j = l ^ mask
        return j if j // width == l // width and j < len(vals) else None
    return _shfl(vals, src)


def shfl_idx(vals, idx_of, width=4):
    def src(l):
        return (l // width) * width + (idx_of(l) % width)
    return _shfl(vals, src)


def ref_shuffle_reduce(args, grid, block):
    m = _copy(args, ("in", "out"))
    v = m["in"][:4]
    d = list(v)
    d = [add(a, b) for a, b in zip(d, shfl_down(d, 2))]
    d = [add(a, b) for a, b in zip(d, shfl_down(d, 1))]
    total = s32(sum(v))
    mx = max(v)
    for t in range(4):
        m["out"][3 * t:3 * t + 3] = [d[t], total, mx]
    return m


def ref_shuffle_scan(args, grid, block):
    m = _copy(args, ("in", "out"))
    v = m["in"][:4]
    scan = [s32(sum(v[:t + 1])) for t in range(4)]
    up1 = [v[0]] + v[:3]          # lane 0 keeps its own value
    bcast = [v[2]] * 4
    rot = [v[(t + 1) % 4] for t in range(4)]
    rev = v[::-1]                 # lane ^ 3 reverses 4 lanes
    for t in range(4):
        m["out"][5 * t:5 * t + 5] = [scan[t], up1[t], bcast[t], rot[t], rev[t]]
    return m


def ref_votes(args, grid, block):
    m = _copy(args, ("in", "res"), ("bal",))
    v = m["in"][:4]
    th = args["th"]

    def ballot(preds):
        return sum(1 << lane for lane, p in enumerate(preds) if p)

    p1 = [x > th for x in v]
    row = [int(any(p1)), int(all(p1)), ballot(p1),
           int(all(x != 0 for x in v)), int(any(x < -100 for x in v))]
    b2 = ballot([x & 1 for x in v])
    for t in range(4):
        m["res"][5 * t:5 * t + 5] = row
        m["bal"][t] = b2
    return m


def ref_grid_stride(args, grid, block):
    m = _copy(args, ("x", "y"))
    n, alpha = args["n"], args["alpha"]
    for i in range(n):
        m["y"][i] = add(mul(alpha, m["x"][i]), m["y"][i])
    return m


def ref_partial_warp(args, grid, block):
    m = _copy(args, ("in", "out", "nb", "ids", "count"))
    v = m["in"][:block]
    for t in range(block):
        m["out"][t] = s32(v[t] * (t + 1) + block)
        m["ids"][t] = (t // 4) * 10 + t % 4
        m["nb"][t] = v[(t + 1) % block]
    m["count"][0] = s32(m["count"][0] + block)
    return m


def ref_multi_cta_ids(args, grid, block):
    m = _copy(args, ("in", "out"))
    for b in range(grid):
        scaled = [mul(x, b + 1) for x in m["in"][b * block:(b + 1) * block]]
        rotated = scaled[-1:] + scaled[:-1]  # thread t reads t - 1 (wraps)
        for t in range(block):
            gid = b * block + t
            m["out"][2 * gid] = grid * 10000 + block * 1000 + b * 100 + t
            m["out"][2 * gid + 1] = rotated[t]
    return m


def ref_prefix_sum_shared(args, grid, block):
    m = _copy(args, ("in", "out"))
    acc = 0
    for t in range(block):
        acc = add(acc, m["in"][t])
        m["out"][t] = acc
    return m


def ref_odd_even_sort(args, grid, block):
    m = _copy(args, ("in", "out"))
    # 8 phases of odd-even transposition sort over 8 values fully sort them
    m["out"][:8] = sorted(m["in"][:8])
    return m


def ref_exit_before_barrier(args, grid, block):
    m = _copy(args, ("in", "out"))
    n = args["n"]
    s = [mul(x, 2) for x in m["in"][:n]]
    for t in range(min(n, block)):
        m["out"][t] = sub(s[n - 1 - t], s[t])
    return m



def ref_syncthreads_count(args, grid, block):
    a = list(args["a"])
    out = list(args["out"])
    for cta in range(grid):
        members = [cta * block + t for t in range(block) if t != 5]  # thread 5 returns first
        acc = 0
        for limit in (4, 8, 12):
            vals = [a[i] for i in members]
            c = sum(1 for v in vals if v > limit)
            any_ = int(any(v == limit for v in vals))
            all_ = int(all(v > limit - 8 for v in vals))
            acc = acc * 100 + c * 10 + any_ * 2 + all_
        for i in members:
            out[i] = acc
    return {"a": a, "out": out}


# --- the chat's ready-made kernels (app/chat/expr.py) -------------------------------------------

def ref_elementwise(args, grid, block):
    m = _copy(args, ("a", "b", "out"))
    f = {0: add, 1: sub, 2: mul}.get(args["op"], mul)
    for i in range(args["n"]):
        m["out"][i] = f(m["a"][i], m["b"][i])
    return m


def ref_reduce_op(args, grid, block):
    m = _copy(args, ("in", "out"))
    vals, op = m["in"][:args["n"]], args["op"]
    acc = m["out"][0]
    if op == 0:
        for v in vals:
            acc = add(acc, v)
    elif op == 1:
        acc = min([acc] + vals)
    elif op == 2:
        acc = max([acc] + vals)
    elif op == 3:
        acc = add(acc, sum(v == args["x"] for v in vals))
    m["out"][0] = acc
    return m


def ref_sort_n(args, grid, block):
    m = _copy(args, ("in", "out"))
    n = args["n"]
    m["out"][:n] = sorted(m["in"][:n])
    return m


def ref_matmul_any(args, grid, block):
    m = _copy(args, ("A", "B", "C"))
    rows, k, p = args["m"], args["k"], args["p"]
    for r in range(rows):
        for c in range(p):
            m["C"][p * r + c] = s32(sum(m["A"][k * r + j] * m["B"][p * j + c] for j in range(k)))
    return m

REFS: dict[str, Callable] = {
    "arith_mix": ref_arith_mix,
    "atomics_global": ref_atomics_global,
    "atomics_shared": ref_atomics_shared,
    "bit_ops": ref_bit_ops,
    "byte_pack": ref_byte_pack,
    "collatz": ref_collatz,
    "div_const": ref_div_const,
    "div_const_unsigned": ref_div_const_unsigned,
    "div_var": ref_div_var,
    "divergence_nested": ref_divergence_nested,
    "dot": ref_dot,
    "early_return": ref_early_return,
    "elementwise": ref_elementwise,
    "exit_before_barrier": ref_exit_before_barrier,
    "gcd": ref_gcd,
    "grid_stride": ref_grid_stride,
    "hash_mix": ref_hash_mix,
    "loop_break_continue": ref_loop_break_continue,
    "matmul": ref_matmul,
    "matmul_any": ref_matmul_any,
    "min_max_abs": ref_min_max_abs,
    "mulhi": ref_mulhi,
    "multi_cta_ids": ref_multi_cta_ids,
    "multi_cta_reduce": ref_multi_cta_reduce,
    "nested_loops": ref_nested_loops,
    "odd_even_sort": ref_odd_even_sort,
    "overflow_wrap": ref_overflow_wrap,
    "partial_warp": ref_partial_warp,
    "popc_clz_brev": ref_popc_clz_brev,
    "prefix_sum_shared": ref_prefix_sum_shared,
    "reduce_op": ref_reduce_op,
    "saturate_add": ref_saturate_add,
    "select_ternary": ref_select_ternary,
    "shared_reverse": ref_shared_reverse,
    "shift_add": ref_shift_add,
    "shuffle_reduce": ref_shuffle_reduce,
    "shuffle_scan": ref_shuffle_scan,
    "sort_n": ref_sort_n,
    "switch_case": ref_switch_case,
    "syncthreads_count": ref_syncthreads_count,
    "tree_reduce": ref_tree_reduce,
    "unsigned_cmp": ref_unsigned_cmp,
    "vector_add": ref_vector_add,
    "votes": ref_votes,
}


# ---------------------------------------------------------------------------
# Header parser
# ---------------------------------------------------------------------------

_HEADER_RE = re.compile(r"^\s*//\s*qgpu:(.*)$")
_KERNEL_RE = re.compile(r"__global__\s+void\s+(\w+)\s*\(([^)]*)\)", re.S)


def _pointer_params(src: str, kernel: str | None) -> set[str]:
    """Names of pointer parameters of the chosen __global__ kernel."""
    kernels = _KERNEL_RE.findall(src)
    if kernel is not None:
        kernels = [k for k in kernels if k[0] == kernel]
    if not kernels:
        return set()
    ptrs = set()
    for p in kernels[0][1].split(","):
        p = p.strip()
        if not p:
            continue
        m = re.search(r"(\w+)\s*(?:\[\s*\])?$", p)
        if m and "*" in p:
            ptrs.add(m.group(1))
    return ptrs


def _parse_int(text: str) -> int:
    text = text.strip()
    body = text.lstrip("+-")
    if body[:2].lower() == "0x":
        return int(text, 16)
    return int(text, 10)


def parse_header(path) -> tuple[int, int, str | None, dict[str, list[int] | int]]:
    """Parse the ``// qgpu:`` lines of a sample.

    Returns ``(grid, block, kernel_or_None, args)`` where args maps each
    kernel parameter name to a list of ints (pointer parameters; ``zeros:N``
    expands to N zeros) or an int (scalar parameters). Whether a parameter is
    a pointer is taken from the kernel signature, so a one-element array
    (``out=5``) is still returned as a list.
    """
    with open(path) as f:
        src = f.read()
    tokens: list[str] = []
    for line in src.splitlines():
        m = _HEADER_RE.match(line)
        if m:
            tokens.extend(shlex.split(m.group(1)))
    grid = block = None
    kernel = None
    raw: dict[str, str] = {}
    it = iter(tokens)
    for tok in it:
        if tok in ("--grid", "--block", "--kernel"):
            val = next(it)
            if tok == "--grid":
                grid = int(val)
            elif tok == "--block":
                block = int(val)
            else:
                kernel = val
        elif tok.startswith("--grid=") or tok.startswith("--block=") or tok.startswith("--kernel="):
            key, val = tok[2:].split("=", 1)
            if key == "grid":
                grid = int(val)
            elif key == "block":
                block = int(val)
            else:
                kernel = val
        elif "=" in tok:
            name, val = tok.split("=", 1)
            raw[name] = val
        else:
            raise ValueError(f"{path}: unexpected header token {tok!r}")
    if grid is None or block is None:
        raise ValueError(f"{path}: header lacks --grid/--block")
    ptrs = _pointer_params(src, kernel)
    args: dict[str, list[int] | int] = {}
    for name, val in raw.items():
        if val.startswith("zeros:"):
            vals = [0] * int(val[len("zeros:"):])
        else:
            vals = [_parse_int(x) for x in val.split(",") if x.strip()]
        if name in ptrs or len(vals) != 1:
            args[name] = vals
        else:
            args[name] = vals[0]
    return grid, block, kernel, args
