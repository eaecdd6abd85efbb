"""Exact 32-bit multiply (``mul``, the low word of a·b) for 4 lanes: seven SwiGLU MLPs.

Values are eight nibbles per lane (0..15). The product's low word is
``Σ_n S_n·16^n mod 2^32`` with the column sums ``S_n = Σ_{i+j=n} a_i·b_j`` (at most
8·225 = 1800). The pipeline turns these columns into nibbles:

====  ==================================================================================
M1    ``S_n`` — one neuron per nibble pair: ``silu(GAIN·a_i)·b_j / GAIN = a_i·b_j``
      exactly (silu(GAIN·k) = GAIN·k in float32 for every integer k ≥ 1, and 0 at 0)
M2    ``A_n = ⌊S_n / 256⌋`` (0..7, one step per possible value)
M3    ``C_n = ⌊r_n / 64⌋`` of ``r_n = S_n − 256·A_n`` (0..3)
M4    ``D_n = ⌊r'_n / 16⌋`` of ``r'_n = r_n − 64·C_n`` (0..3)
M5    ``x_n = (r'_n − 16·D_n) + D_{n−1} + 4·C_{n−1} + A_{n−2}`` (≤ 37, the same number
      regrouped); ``Y_n = x_n − 16·F_n + F_{n−1}`` with ``F_n = ⌊x_n / 16⌋`` (0..2), so
      ``Y_n ≤ 17``; the column bank is cleared
M6    generate ``g_n = [Y_n ≥ 16]``, propagate ``p_n = [Y_n = 15]``
M7    ``out_n += Y_n + c_n − 16·c_{n+1}``, carries by lookahead as in the adder
      (``c_n = Σ_j g_j ∧ p_{j+1} ∧ … ∧ p_{n−1}``, exclusive terms, one step each)
====  ==================================================================================

Scale: ``S_n`` is kept as ``S_n / 256`` in the residual (≤ 7.1), so the columns add almost
nothing to the residual's RMS (the relative drift of every channel grows with the sum of
squares of the content; see docs/circuit.md, "Units and margins"). Decisions are
scale-free, so the scaled channel is read back with weight 256.

Every step and the passes into ``out`` are gated by the op flag; only the M1 products are
not (they are cleared at M5 whatever the op). Seven layers are longer than the slot period,
so a slot's ``mul`` result is ready two slots later: the kernel compiler never lets the
next instruction of a block read it (``BlockLimits.mul_latency``).

Neurons per slot (4 lanes): 144 / 224 / 192 / 192 / 344 / 128 / 400.
"""

from __future__ import annotations

from compiler.circuit.alu_add import OFF_WEIGHT
from compiler.circuit.layers import GAIN, LayerSpec, Lin, lin
from compiler.circuit.space import Group, Space

DEPTH = 7
"""MLP layers of the multiplier (its result lands in the MLP of layer ``B + DEPTH``)."""
NIB = 8
S_SCALE = 256.0
"""The column sums are stored divided by this."""


def mul_banks(space: Space, lanes: int, parity: str) -> dict[str, Group]:
    """The multiplier's intermediates for the even or odd slots (a slot's multiply overlaps the
    next slot's, so consecutive slots use different banks)."""
    def bank(name: str, cols, doc: str) -> Group:
        return space.shared(f"mul.{name}.{parity}", [(l, n) for l in range(lanes) for n in cols], kind="scalar",
                            doc=f"mul ({parity} slots): {doc} (bank)", stage="execute")
    return {
        "S": bank("S", range(NIB), "column sums S_n = Σ_{i+j=n} a_i·b_j, stored / 256"),
        "A": bank("A", range(1, NIB), "⌊S_n / 256⌋"),
        "C": bank("C", range(NIB), "⌊(S_n mod 256) / 64⌋"),
        "D": bank("D", range(NIB), "⌊(S_n mod 64) / 16⌋"),
        "Y": bank("Y", range(NIB), "column n regrouped to at most 17"),
        "g": bank("g", range(NIB), "carry generate [Y_n ≥ 16]"),
        "p": bank("p", range(NIB), "carry propagate [Y_n = 15]"),
    }


def build_mul(layers: list[LayerSpec], space: Space, anchor: int, a: Group, b: Group, out: Group,
              flag: int, lanes: int, parity: str) -> None:
    """``out += (a·b) mod 2**32`` when the 0/1 channel ``flag`` is on; ``layers``: the DEPTH
    consecutive layers whose MLPs are used."""
    if len(layers) != DEPTH:
        raise ValueError(f"build_mul needs {DEPTH} layers, got {len(layers)}")
    M1, M2, M3, M4, M5, M6, M7 = layers
    g = mul_banks(space, lanes, parity)
    S, A, C, D, Y, G, P = (g[k] for k in "SACDYgp")
    fname = next(grp.name for grp in space.groups.values() if flag in grp.indices)
    for lane in range(lanes):
        s = {n: {S[(lane, n)]: S_SCALE} for n in range(NIB)}   # S_n, read back at full scale

        def a_(n: int) -> Lin:
            return {A[(lane, n)]: 1.0} if n >= 1 else {}

        r = {n: lin(s[n], {ch: -256.0 for ch in a_(n)}) for n in range(NIB)}            # S_n mod 256
        r2 = {n: lin(r[n], {C[(lane, n)]: -64.0}) for n in range(NIB)}                    # S_n mod 64
        # M1: products
        for i in range(NIB):
            for j in range(NIB - i):
                M1.neuron({a[(lane, i)]: GAIN}, {b[(lane, j)]: 1.0}, {S[(lane, i + j)]: 1.0 / (GAIN * S_SCALE)})
        for n in range(NIB):
            top = 225 * (n + 1)
            # M2..M4: the three digit extractions
            for k in range(1, top // 256 + 1):
                M2.flag_step(anchor, s[n], 256 * k - 0.5, {A[(lane, n)]: 1.0}, flag)
            for k in range(1, 4):
                M3.flag_step(anchor, r[n], 64 * k - 0.5, {C[(lane, n)]: 1.0}, flag)
                M4.flag_step(anchor, r2[n], 16 * k - 0.5, {D[(lane, n)]: 1.0}, flag)
        # M5: regroup and bring every column to <= 17
        for n in range(NIB):
            x = lin(r2[n], {D[(lane, n)]: -16.0})
            if n >= 1:
                x = lin(x, {D[(lane, n - 1)]: 1.0, C[(lane, n - 1)]: 4.0})
            if n >= 2:
                x = lin(x, a_(n - 2))
            M5.gated(anchor, {flag: OFF_WEIGHT}, OFF_WEIGHT, x, {Y[(lane, n)]: 1.0})
            spill = {Y[(lane, n)]: -16.0}
            if n + 1 < NIB:
                spill[Y[(lane, n + 1)]] = 1.0
            for t in (15.5, 31.5):
                M5.flag_step(anchor, x, t, spill, flag)
        # M6: generate / propagate
        for n in range(NIB):
            y = {Y[(lane, n)]: 1.0}
            M6.flag_step(anchor, y, 15.5, {G[(lane, n)]: 1.0, P[(lane, n)]: -1.0}, flag)
            M6.flag_step(anchor, y, 14.5, {P[(lane, n)]: 1.0}, flag)
        # M7: out_n = Y_n + c_n − 16·c_{n+1}; the term (j, n) of carry c_n is g_j ∧ p_{j+1..n−1}
        for n in range(NIB):
            M7.gated(anchor, {flag: OFF_WEIGHT}, OFF_WEIGHT, {Y[(lane, n)]: 1.0}, {out[(lane, n)]: 1.0})
        for n in range(1, NIB + 1):
            effect = {out[(lane, n - 1)]: -16.0}
            if n < NIB:
                effect[out[(lane, n)]] = 1.0
            for j in range(n):
                terms = {G[(lane, j)]: 1.0, **{P[(lane, m)]: 1.0 for m in range(j + 1, n)}}
                M7.flag_step(anchor, terms, len(terms) - 0.5, effect, flag)
    M5.clear(anchor, [*S.indices, *A.indices, *C.indices, *D.indices])
    M7.clear(anchor, [*Y.indices, *G.indices, *P.indices])
    M1.reads += [a.name, b.name]
    M1.writes.append(S.name)
    for L, rd, wr in ((M2, [S.name], [A.name]), (M3, [S.name, A.name], [C.name]),
                      (M4, [S.name, A.name, C.name], [D.name]), (M5, [S.name, A.name, C.name, D.name], [Y.name]),
                      (M6, [Y.name], [G.name, P.name]), (M7, [Y.name, G.name, P.name], [out.name])):
        L.reads += [*rd, fname]
        L.writes += wr
