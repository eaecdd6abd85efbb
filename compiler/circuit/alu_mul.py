"""Exact 32-bit multiplies for 4 lanes: ``mul`` (low word of a·b), ``mulhi.u`` and
``mulhi.s`` (high word, unsigned or signed), in eight SwiGLU MLPs.

Values are eight nibbles per lane (0..15). The 64-bit product is ``Σ_n S_n·16^n`` with the
column sums ``S_n = Σ_{i+j=n} a_i·b_j`` (n = 0..14, at most 8·225 = 1800). For ``mulhi.s``,
``a·b`` (signed) ≡ ``a·b`` (unsigned) ``+ [a<0]·(~b + 1)·2^32 + [b<0]·(~a + 1)·2^32`` (mod 2^64),
so columns 8..15 also get ``[a<0]·(15 − b_{n−8}) + [b<0]·(15 − a_{n−8})`` and column 8 the
two ``+1`` — every column stays a sum of non-negative terms. The pipeline turns the columns
into nibbles:

====  ==================================================================================
M1    ``S_n`` — one neuron per nibble pair: ``silu(GAIN·a_i)·b_j / GAIN = a_i·b_j``
      exactly (silu(GAIN·k) = GAIN·k in float32 for every integer k ≥ 1, and 0 at 0);
      the ``mulhi.s`` corrections (a step on the top nibble, its up projection ``15 − b_j``)
M2    ``A_n = ⌊S_n / 256⌋`` (0..7, one step per possible value)
M3    ``C_n = ⌊r_n / 64⌋`` of ``r_n = S_n − 256·A_n`` (0..3)
M4    ``D_n = ⌊r'_n / 16⌋`` of ``r'_n = r_n − 64·C_n`` (0..3)
M5    ``E_n = ⌊r''_n / 4⌋`` of the low nibble ``r''_n = r'_n − 16·D_n``, and ``F_n = ⌊x_n / 16⌋``
      (0..2) of the regrouped column ``x_n = r''_n + D_{n−1} + 4·C_{n−1} + A_{n−2}`` (≤ 37)
M6    ``Y_n = x_n − 16·F_n + F_{n−1}`` (≤ 17) from exact digits: the low nibble is ``4·E_n``
      plus three unit steps; generate ``g_n = [Y_n ≥ 16]``, propagate ``p_n = [Y_n = 15]``;
M7    ``mul``: ``out_n += Y_n + c_n − 16·c_{n+1}`` (n < 8), carries by lookahead as in the
      adder (``c_n = Σ_j g_j ∧ p_{j+1} ∧ … ∧ p_{n−1}``, exclusive terms, one step each);
      the carry into column 8 as a channel ``c8`` for the high word
M8    ``mulhi``: ``out_{n−8} += Y_n + c_n − 16·c_{n+1}`` (n ≥ 8), lookahead from ``c8``
====  ==================================================================================

Exactness: ``S_n`` is only as good as the operand read-outs (a relative error of ~1e-5 is
~0.02 on a column of 1800), and a product feeds later multiplies, so the result must not
inherit it. Every digit is a step output (exact), and the low nibble is resolved down to
units by steps (M5, M6); the noisy ``S_n`` only ever enters thresholds.

Scale: ``S_n`` is kept as ``S_n / 256`` in the residual (≤ 7.1), so the columns add almost
nothing to the residual's RMS (the relative drift of every channel grows with the sum of
squares of the content; see docs/circuit.md, "Units and margins"). Decisions are
scale-free, so the scaled channel is read back with weight 256.

Every step and the passes into ``out`` are gated by the op flags; only the M1 products are
not (they are cleared at M6 whatever the op). Eight layers are longer than the slot period,
so a slot's product is ready two slots later: the kernel compiler never lets the next
instruction of a block read it (``BlockLimits.mul_latency``).

Neurons per slot (4 lanes), M1..M8: 384 / 392 / 384 / 384 / 640 / 768 / 572 / 708 (with the
bank clears: S at M6, A/E/F at M7, the rest at M8).
"""

from __future__ import annotations

from compiler.circuit.alu_add import OFF_WEIGHT
from compiler.circuit.layers import GAIN, LayerSpec, Lin, lin
from compiler.circuit.space import Group, Space

MUL_OPS = ("mul", "mulhi.u", "mulhi.s")
DEPTH = 8
"""MLP layers of the multiplier (its result lands in the MLP of layer ``B + DEPTH``)."""
NIB = 8
COLS = 2 * NIB
S_SCALE = 256.0
"""The column sums are stored divided by this."""


def column_max(n: int) -> int:
    """Largest column sum S_n: the products, and for the high columns the mulhi.s corrections."""
    products = 225 * min(n + 1, 2 * NIB - 1 - n)
    return products + (30 + 2 * (n == NIB) if n >= NIB else 0)


def mul_banks(space: Space, lanes: int) -> dict[str, Group]:
    """The multiplier's intermediates. One set serves every slot although a slot's multiply
    overlaps the next one's (it starts five layers later): the column sums and digit banks live
    from M1 to M6, and each is cleared in the layer where the next slot's multiply writes it
    (the clear reads the value at the layer's input) or earlier; the carry banks live from M6
    to M8, before the next slot's M6."""
    def bank(name: str, cols, doc: str) -> Group:
        return space.shared(f"mul.{name}", [(l, n) for l in range(lanes) for n in cols], kind="scalar",
                            doc=f"multiplier: {doc} (bank)", stage="execute")
    return {
        "S": bank("S", range(COLS), "column sums S_n = Σ_{i+j=n} a_i·b_j (+ mulhi.s corrections), stored / 256"),
        "A": bank("A", range(1, COLS), "⌊S_n / 256⌋"),
        "C": bank("C", range(COLS), "⌊(S_n mod 256) / 64⌋"),
        "D": bank("D", range(COLS), "⌊(S_n mod 64) / 16⌋"),
        "E": bank("E", range(COLS), "⌊(S_n mod 16) / 4⌋"),
        "F": bank("F", range(COLS), "⌊x_n / 16⌋ of the regrouped column x_n"),
        "Y": bank("Y", range(COLS), "column n regrouped to at most 17"),
        "g": bank("g", range(COLS), "carry generate [Y_n ≥ 16]"),
        "p": bank("p", range(COLS), "carry propagate [Y_n = 15]"),
        "c8": bank("c8", range(1), "carry into column 8 (the high word)"),
    }


def build_mul(layers: list[LayerSpec], space: Space, anchor: int, a: Group, b: Group, out: Group,
              flags: dict[str, int], lanes: int) -> None:
    """``out +=`` the low word of ``a·b`` if ``flags["mul"]`` is on, the high word (unsigned or
    signed) if ``flags["mulhi.u"]`` / ``flags["mulhi.s"]`` is (exclusive 0/1 channels).
    ``layers``: the DEPTH consecutive layers whose MLPs are used."""
    if len(layers) != DEPTH:
        raise ValueError(f"build_mul needs {DEPTH} layers, got {len(layers)}")
    M1, M2, M3, M4, M5, M6, M7, M8 = layers
    bk = mul_banks(space, lanes)
    S, A, C, D, E, F, Y, G, P, C8 = (bk[k] for k in ("S", "A", "C", "D", "E", "F", "Y", "g", "p", "c8"))
    lo, hu, hs = (flags[n] for n in MUL_OPS)
    hi = {hu: 1.0, hs: 1.0}
    any_ = {lo: 1.0, hu: 1.0, hs: 1.0}

    def on(n: int) -> Lin:
        """The ops that need column n."""
        return any_ if n < NIB else hi

    def gate(n: int) -> Lin:
        """A pass gate for column n (off pre-activation −(OFF_WEIGHT − ½)·GAIN: silu is −0)."""
        return {f: OFF_WEIGHT for f in on(n)}

    for lane in range(lanes):
        s = {n: {S[(lane, n)]: S_SCALE} for n in range(COLS)}   # S_n, read back at full scale

        def a_(n: int) -> Lin:
            return {A[(lane, n)]: 1.0} if n >= 1 else {}

        r = {n: lin(s[n], {ch: -256.0 for ch in a_(n)}) for n in range(COLS)}           # S_n mod 256
        r2 = {n: lin(r[n], {C[(lane, n)]: -64.0}) for n in range(COLS)}                  # S_n mod 64
        # M1: products, and the mulhi.s corrections [x < 0]·(15 − y_j) into column 8 + j
        for i in range(NIB):
            for j in range(NIB):
                M1.neuron({a[(lane, i)]: GAIN}, {b[(lane, j)]: 1.0}, {S[(lane, i + j)]: 1.0 / (GAIN * S_SCALE)})
        for x, y in ((a, b), (b, a)):
            neg = lin({x[(lane, NIB - 1)]: 1.0}, {hs: 16.0})   # >= 23.5 iff mulhi.s and top nibble >= 8
            for j in range(NIB):
                inc = {anchor: 15.0 + (j == 0), y[(lane, j)]: -1.0}
                M1.flag_step(anchor, neg, 23.5, {S[(lane, NIB + j)]: 1.0 / S_SCALE}, inc)
        for n in range(COLS):
            # M2..M4: the three digit extractions
            for k in range(1, column_max(n) // 256 + 1):
                M2.flag_step(anchor, s[n], 256 * k - 0.5, {A[(lane, n)]: 1.0}, on(n))
            for k in range(1, 4):
                M3.flag_step(anchor, r[n], 64 * k - 0.5, {C[(lane, n)]: 1.0}, on(n))
                M4.flag_step(anchor, r2[n], 16 * k - 0.5, {D[(lane, n)]: 1.0}, on(n))
            # M5: E_n = ⌊r''_n / 4⌋ of r''_n = r'_n − 16·D_n (0..15, the column's low nibble), and
            # F_n = ⌊x_n / 16⌋ of the regrouped column x_n = r''_n + D_{n−1} + 4·C_{n−1} + A_{n−2}
            low = lin(r2[n], {D[(lane, n)]: -16.0})
            carried = lin({D[(lane, n - 1)]: 1.0, C[(lane, n - 1)]: 4.0} if n >= 1 else {}, a_(n - 2) if n >= 2 else {})
            for k in range(1, 4):
                M5.flag_step(anchor, low, 4 * k - 0.5, {E[(lane, n)]: 1.0}, on(n))
            for k in (1, 2):
                M5.flag_step(anchor, lin(low, carried), 16 * k - 0.5, {F[(lane, n)]: 1.0}, on(n))
            # M6: Y_n = x_n − 16·F_n + F_{n−1} (≤ 17) from exact digits only: the low nibble is
            # 4·E_n plus three unit steps on r''_n − 4·E_n, so the noise of S_n (operand read-outs
            # times up to 1800) never reaches the result. Generate / propagate are decided on the
            # same value written with the noisy r''_n (a decision is exact while the noise is < ¼).
            spill = lin({F[(lane, n)]: -16.0}, {F[(lane, n - 1)]: 1.0} if n >= 1 else {})
            M6.gated(anchor, gate(n), OFF_WEIGHT, lin({E[(lane, n)]: 4.0}, carried, spill), {Y[(lane, n)]: 1.0})
            for k in range(1, 4):
                M6.flag_step(anchor, lin(low, {E[(lane, n)]: -4.0}), k - 0.5, {Y[(lane, n)]: 1.0}, on(n))
            y = lin(low, carried, spill)
            M6.flag_step(anchor, y, 15.5, {G[(lane, n)]: 1.0, P[(lane, n)]: -1.0}, on(n))
            M6.flag_step(anchor, y, 14.5, {P[(lane, n)]: 1.0}, on(n))
        # M7 (low word) and M8 (high word): out = Y_n + c_n − 16·c_{n+1}; the term (j, n) of carry
        # c_n is g_j ∧ p_{j+1} ∧ … ∧ p_{n−1}; the high word starts from the carry channel c8
        c8 = C8[(lane, 0)]
        for n in range(NIB):
            M7.gated(anchor, {lo: OFF_WEIGHT}, OFF_WEIGHT, {Y[(lane, n)]: 1.0}, {out[(lane, n)]: 1.0})
            M8.gated(anchor, {f: OFF_WEIGHT for f in hi}, OFF_WEIGHT, lin({Y[(lane, NIB + n)]: 1.0}, {c8: 1.0} if n == 0 else {}),
                     {out[(lane, n)]: 1.0})
        for n in range(1, NIB + 1):
            low, high = {out[(lane, n - 1)]: -16.0}, {out[(lane, n - 1)]: -16.0}
            if n < NIB:
                low[out[(lane, n)]] = 1.0
                high[out[(lane, n)]] = 1.0
            for j in range(n):
                terms = {G[(lane, j)]: 1.0, **{P[(lane, m)]: 1.0 for m in range(j + 1, n)}}
                M7.flag_step(anchor, terms, len(terms) - 0.5, low, lo)
                if n == NIB:
                    M7.flag_step(anchor, terms, len(terms) - 0.5, {c8: 1.0}, hi)
                hterms = {G[(lane, NIB + j)]: 1.0, **{P[(lane, NIB + m)]: 1.0 for m in range(j + 1, n)}}
                M8.flag_step(anchor, hterms, len(hterms) - 0.5, high, hi)
            cterms = {c8: 1.0, **{P[(lane, NIB + m)]: 1.0 for m in range(n)}}
            M8.flag_step(anchor, cterms, len(cterms) - 0.5, high, hi)
    # each bank is cleared in the layer where the next slot's multiply writes it (or earlier), as
    # late as its last reader allows: that keeps the clears out of M6, the widest layer
    M6.clear(anchor, S.indices)                                                  # next M1 is this M6
    M7.clear(anchor, [*A.indices, *E.indices, *F.indices])                      # next M2 is this M7
    M8.clear(anchor, [*C.indices, *D.indices, *Y.indices, *G.indices, *P.indices, *C8.indices])
    fl = [grp.name for grp in space.groups.values() if lo in grp.indices][:1]
    M1.reads += [a.name, b.name, *fl]
    M1.writes.append(S.name)
    for L, rd, wr in ((M2, [S.name], [A.name]), (M3, [S.name, A.name], [C.name]),
                      (M4, [S.name, A.name, C.name], [D.name]), (M5, [S.name, A.name, C.name, D.name], [E.name, F.name]),
                      (M6, [S.name, A.name, C.name, D.name, E.name, F.name], [Y.name, G.name, P.name]),
                      (M7, [Y.name, G.name, P.name], [out.name, C8.name]),
                      (M8, [Y.name, G.name, P.name, C8.name], [out.name])):
        L.reads += [*rd, *fl]
        L.writes += wr
