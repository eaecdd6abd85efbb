"""Exact bitwise ops for 4 lanes: ``and``, ``or``, ``xor``, ``not``, three MLPs.

Values are eight scalar nibbles per lane; bitwise ops need the bits of both operands:

1. per nibble n: ``b3 = [n ≥ 8]`` and ``b2 = [n ≥ 4] − [n ≥ 8] + [n ≥ 12]`` (three steps);
2. ``m = n − 8·b3 − 4·b2`` (0..3, linear) gives ``b1 = [m ≥ 2]``; then ``b0 = m − 2·b1`` is
   linear again — four bits for eight neurons per nibble instead of fifteen steps;
3. per bit ``and = [a_k + b_k ≥ 2]``, ``or = [a_k + b_k ≥ 1]``; ``xor = or − and``, and
   ``not a = 15 − a`` per nibble needs no bits at all.

Every step is gated by the op flags (up projection), so the ops add nothing when off.
Neurons per slot (4 lanes): 384 / 128 / 288 (+ popc/clz/brev in a fourth layer, 300).
"""

from __future__ import annotations

from compiler.circuit.layers import LayerSpec, Lin, lin
from compiler.circuit.space import Group, Space

LOGIC = ("and", "or", "xor", "not")
BITCOUNT = ("popc", "clz", "brev")


def build_logic(layers: list[LayerSpec], space: Space, anchor: int, a: Group, b: Group, out: Group,
                flags: dict[str, int], lanes: int) -> list[Group]:
    """``out += op(a, b)`` for the op whose flag is set (and, or, xor, not; popc, clz, brev in the
    fourth layer). Returns its banks (``logic.hi``, ``logic.b1``): the caller clears them when the
    slot is done."""
    L1, L2, L3 = layers[:3]
    L4 = layers[3] if len(layers) > 3 else L3  # popc/clz/brev (the bits are still there one layer on)
    binary = {flags[n]: 1.0 for n in ("and", "or", "xor", *BITCOUNT)}
    hi = space.shared("logic.hi", [(x, l, i, k) for x in "ab" for l in range(lanes) for i in range(8) for k in (3, 2)],
                      kind="scalar", doc="bitwise ops: bits 3 and 2 of every operand nibble (bank)", stage="execute")
    b1 = space.shared("logic.b1", [(x, l, i) for x in "ab" for l in range(lanes) for i in range(8)], kind="scalar",
                      doc="bitwise ops: bit 1 of every operand nibble (bank)", stage="execute")
    for lane in range(lanes):
        for x, g in (("a", a), ("b", b)):
            for i in range(8):
                n = {g[(lane, i)]: 1.0}
                L1.flag_step(anchor, n, 7.5, {hi[(x, lane, i, 3)]: 1.0, hi[(x, lane, i, 2)]: -1.0}, binary)
                L1.flag_step(anchor, n, 3.5, {hi[(x, lane, i, 2)]: 1.0}, binary)
                L1.flag_step(anchor, n, 11.5, {hi[(x, lane, i, 2)]: 1.0}, binary)
                m = lin(n, {hi[(x, lane, i, 3)]: -8.0, hi[(x, lane, i, 2)]: -4.0})
                L2.flag_step(anchor, m, 1.5, {b1[(x, lane, i)]: 1.0}, binary)

        def bit(x: str, g: Group, i: int, k: int) -> Lin:
            if k >= 2:
                return {hi[(x, lane, i, k)]: 1.0}
            if k == 1:
                return {b1[(x, lane, i)]: 1.0}
            return lin({g[(lane, i)]: 1.0}, {hi[(x, lane, i, 3)]: -8.0, hi[(x, lane, i, 2)]: -4.0,
                                            b1[(x, lane, i)]: -2.0})

        for i in range(8):
            o = out[(lane, i)]
            for k in range(4):
                s = lin(bit("a", a, i, k), bit("b", b, i, k))
                w = float(1 << k)
                # and = [s ≥ 2], or = [s ≥ 1], xor = or − and: two steps per bit, the op flags
                # weighting them in the up projection
                L3.flag_step(anchor, s, 0.5, {o: w}, {flags["or"]: 1.0, flags["xor"]: 1.0})
                L3.flag_step(anchor, s, 1.5, {o: w}, {flags["and"]: 1.0, flags["xor"]: -1.0})
            L3.gated(anchor, {flags["not"]: 1.0}, 1, lin({anchor: 15.0}, {a[(lane, i)]: -1.0}), {o: 1.0})
        # popc, clz, brev from the bits of a (bit t = 4i + k)
        abit = [bit("a", a, t // 4, t % 4) for t in range(32)]
        n0, n1 = out[(lane, 0)], out[(lane, 1)]
        L4.gated(anchor, {flags["popc"]: 1.0}, 1, lin(*abit), {n0: 1.0})   # the count, nibble 0 ...
        for t in (16, 32):                                                # ... carried at 16 and 32
            L4.flag_step(anchor, lin(*abit), t - 0.5, {n0: -16.0, n1: 1.0}, flags["popc"])
        for m in range(1, 33):  # clz = number of m such that the top m bits are all 0
            top = lin(*abit[32 - m:])
            w = {n0: -15.0, n1: 1.0} if m in (16, 32) else {n0: 1.0}
            L4.flag_step(anchor, {c: -v for c, v in top.items()}, -0.5, w, flags["clz"])
        for i in range(8):      # brev: bit t of the result is bit 31 - t of a
            form = lin(*[{c: float(1 << k) * v for c, v in abit[31 - (4 * i + k)].items()} for k in range(4)])
            L4.gated(anchor, {flags["brev"]: 1.0}, 1, form, {out[(lane, i)]: 1.0})
    L1.reads += [a.name, b.name]
    L1.writes.append(hi.name)
    L2.reads += [a.name, b.name, hi.name]
    L2.writes.append(b1.name)
    L3.reads += [a.name, b.name, hi.name, b1.name]
    L3.writes.append(out.name)
    L4.reads += [a.name, hi.name, b1.name]  # popc, clz, brev: the bits of a
    L4.writes.append(out.name)
    return [hi, b1]
