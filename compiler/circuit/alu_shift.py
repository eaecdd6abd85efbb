"""Exact 32-bit shifts for 4 lanes: ``shl``, ``shr.u``, ``shr.s`` by any amount, three MLPs.

Values are eight scalar nibbles per lane. A shift by ``K = 4q + r`` is a shift by r bits
inside the nibbles, then by q whole nibbles (``K ≥ 32``: all zero, or the sign for
``shr.s``). The amount comes from operand b (an immediate or a register), so one circuit
serves both.

1. **steps** — ``ge[i, m] = [a_i ≥ 2m]`` for m = 1..7: every ``floor(a_i / 2^s)`` is a sum of
   them; the one-hot of ``b_0`` (→ r = b_0 mod 4 and b_0 div 4); ``big = [K ≥ 32]``.
2. **bit shift** — per op and r (gated by both): shl ``t_i = 2^r a_i − 16·⌊a_i/2^(4−r)⌋ +
   ⌊a_(i−1)/2^(4−r)⌋``; shr ``t_i = ⌊a_i/2^r⌋ + 2^(4−r) a_(i+1) − 16·⌊a_(i+1)/2^r⌋`` (above nibble 7:
   0, or the sign fill for shr.s); and the one-hot of q = b_0 div 4 + 4·b_1.
3. **nibble shift** — ``out_i = Σ_q [q]·t_(i∓q)`` (shr.s fills with 15·sign).

Neurons per slot (4 lanes): about 580 / 420 / 580. Every output is gated by the op flags.
"""

from __future__ import annotations

from compiler.circuit.layers import LayerSpec, Lin, lin
from compiler.circuit.space import Group, Space

SHIFTS = ("shl", "shr.u", "shr.s")


def build_shifts(layers: list[LayerSpec], space: Space, anchor: int, a: Group, b: Group, out: Group,
                 flags: dict[str, int], lanes: int) -> dict[str, Group]:
    a_ = anchor
    L1, L2, L3 = layers
    any_shift = {flags[n]: 1.0 for n in SHIFTS}
    shared = space.shared
    ge = shared("shift.ge", [(l, i, m) for l in range(lanes) for i in range(8) for m in range(1, 8)], kind="scalar",
                doc="shift: [a_i >= 2m] (bank)", stage="execute")
    b0 = shared("shift.b0", [(l, v) for l in range(lanes) for v in range(16)], kind="onehot",
                doc="shift: nibble 0 of the amount (bank)", stage="execute")
    big = shared("shift.big", [(l, k) for l in range(lanes) for k in ("big", "b1")], kind="scalar",
                 doc="shift: amount >= 32; nibble 1 of the amount is not 0 (bank)", stage="execute")
    t = shared("shift.t", [(l, i) for l in range(lanes) for i in range(8)], kind="scalar",
               doc="shift: a shifted by r bits inside the nibbles (bank)", stage="execute")
    q = shared("shift.q", [(l, v) for l in range(lanes) for v in range(8)], kind="scalar",
               doc="shift: one-hot of q = amount div 4 (bank)", stage="execute")
    for lane in range(lanes):
        A = [a[(lane, i)] for i in range(8)]
        B = [b[(lane, i)] for i in range(8)]
        # ---- layer 1
        for i in range(8):
            for m in range(1, 8):  # zero unless a shift runs (the flags are exclusive)
                L1.flag_step(a_, {A[i]: 1.0}, 2 * m - 0.5, {ge[(lane, i, m)]: 1.0}, any_shift)
        for v in range(16):
            if v == 0:
                L1.gated(a_, {a_: 1.0}, 1, {a_: 1.0}, {b0[(lane, 0)]: 1.0})
            else:
                L1.step(a_, {B[0]: 1.0}, v - 0.5, {b0[(lane, v)]: 1.0})
            if v < 15:
                L1.step(a_, {B[0]: 1.0}, v + 0.5, {b0[(lane, v)]: -1.0})
        # big = 1 − [amount < 32]: the step is on only for nibble 1 ≤ 1 and nibbles 2..7 zero, so its
        # sum is within 2 of the threshold (exact in bfloat16; [Σ ≥ 1.5] would see sums up to 1455)
        L1.gated(a_, {a_: 1.0}, 1, {a_: 1.0}, {big[(lane, "big")]: 1.0})
        L1.step(a_, {B[i]: -1.0 if i == 1 else -16.0 for i in range(1, 8)}, -1.5, {big[(lane, "big")]: -1.0})
        L1.step(a_, {B[1]: 1.0}, 0.5, {big[(lane, "b1")]: 1.0})

        def fl(i: int, s: int) -> Lin:
            """floor(a_i / 2^s) as a sum of ge steps (0 outside the word)."""
            if not 0 <= i < 8 or s >= 4:
                return {}
            if s == 0:
                return {A[i]: 1.0}
            return {ge[(lane, i, j << (s - 1))]: 1.0 for j in range(1, (15 >> s) + 1)}

        def scaled(form: Lin, k: float) -> Lin:
            return {c: k * w for c, w in form.items()}

        sign = {ge[(lane, 7, 4)]: 1.0}
        # ---- layer 2: shift by r inside the nibbles
        for r in range(4):
            rflag = {b0[(lane, v)]: 1.0 for v in range(16) if v % 4 == r}
            for i in range(8):
                if r == 0:
                    for name in SHIFTS:
                        L2.gated(a_, lin({flags[name]: 1.0}, rflag), 2, {A[i]: 1.0}, {t[(lane, i)]: 1.0})
                    continue
                shl = lin({A[i]: float(1 << r)}, scaled(fl(i, 4 - r), -16.0), fl(i - 1, 4 - r))
                L2.gated(a_, lin({flags["shl"]: 1.0}, rflag), 2, shl, {t[(lane, i)]: 1.0})
                for name in ("shr.u", "shr.s"):
                    if i < 7:
                        nxt = lin({A[i + 1]: float(1 << (4 - r))}, scaled(fl(i + 1, r), -16.0))
                    else:  # above the word: zeros, or the sign fill (its low r bits, moved up)
                        nxt = scaled(sign, float(16 - (1 << (4 - r)))) if name == "shr.s" else {}
                    L2.gated(a_, lin({flags[name]: 1.0}, rflag), 2, lin(fl(i, r), nxt), {t[(lane, i)]: 1.0})
        for v in range(8):  # q = b0 div 4 + 4·b1, unless the amount is >= 32
            qlo = {b0[(lane, u)]: 1.0 for u in range(16) if u // 4 == v % 4}
            b1, bg = big[(lane, "b1")], big[(lane, "big")]
            if v < 4:
                L2.gated(a_, lin(qlo, {b1: -1.0, bg: -1.0}), 1, {a_: 1.0}, {q[(lane, v)]: 1.0})
            else:
                L2.gated(a_, lin(qlo, {b1: 1.0, bg: -1.0}), 2, {a_: 1.0}, {q[(lane, v)]: 1.0})
        # ---- layer 3: shift by q whole nibbles into the result
        for i in range(8):
            o = {out[(lane, i)]: 1.0}
            for v in range(8):
                if i - v >= 0:
                    L3.gated(a_, {q[(lane, v)]: 1.0, flags["shl"]: 1.0}, 2, {t[(lane, i - v)]: 1.0}, o)
                if i + v <= 7:
                    for name in ("shr.u", "shr.s"):
                        L3.gated(a_, {q[(lane, v)]: 1.0, flags[name]: 1.0}, 2, {t[(lane, i + v)]: 1.0}, o)
                else:
                    L3.gated(a_, {q[(lane, v)]: 1.0, flags["shr.s"]: 1.0}, 2, scaled(sign, 15.0), o)
            L3.gated(a_, {big[(lane, "big")]: 1.0, flags["shr.s"]: 1.0}, 2, scaled(sign, 15.0), o)
    for L, r, w in ((L1, [a.name, b.name], [ge.name, b0.name, big.name]), (L2, [a.name, ge.name, b0.name, big.name],
                    [t.name, q.name]), (L3, [t.name, q.name, ge.name, big.name], [out.name])):
        L.reads += r
        L.writes += w
    return {"ge": ge, "b0": b0, "big": big, "t": t, "q": q}
