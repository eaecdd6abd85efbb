"""Exact 32-bit multiplies for 4 lanes: ``mul`` (low word of a·b), ``mulhi.u`` and
``mulhi.s`` (high word, unsigned or signed), in eight SwiGLU MLPs.

**Signed digits.** Each operand's eight nibbles are recoded as signed digits (radix-16 Booth):
``e_i = a_i − 16·s_i + s_{i−1}`` with ``s_i = [a_i ≥ 8]`` (the nibble's top bit, which the operand
mux delivers with the operand, ``execute.SlotBuilder.sign_groups``), so ``e_i ∈ [−8, 8]`` and
``Σ e_i·16^i`` is a's *signed* value. The signed product is ``Σ_n S_n·16^n`` with the column sums
``S_n = Σ_{i+j=n} e_i·d_j`` (|S_n| ≤ 512), which gives ``mul`` and ``mulhi.s`` directly; ``mulhi.u``
adds ``s_7·d_j + t_7·e_j`` to column ``8 + j`` (``a_u·b_u = a_s·b_s + 2^32·(s_7·b_s + t_7·a_s)``
mod 2^64). Why: a value of small magnitude, positive *or negative*, has few non-zero signed digits,
so its columns stay small — and bfloat16 is exact only on small sums (below).

The pipeline turns the columns into nibbles (digits rounded, then floored, so that every step is
on only beyond its threshold):

====  ==================================================================================
M1    ``S_n``: one neuron per digit pair, ``silu(G·(e_i + 8))·d_j = G·(e_i + 8)·d_j`` (exact:
      silu(G·k) = G·k for every integer k ≥ 1, and 0 at 0), and one per column for the
      ``−8·Σ d_j`` that the shift adds; the ``mulhi.u`` terms
M2    ``A_n = round(S_n / 256)`` (−2..2), ``r_n = S_n − 256·A_n`` in [−128, 127]
M3    ``B_n = round(r_n / 128)`` (−1..1), ``r'_n = r_n − 128·B_n`` in [−64, 63]
M4    ``C_n = ⌊r'_n / 16⌋`` (−4..3), ``low_n = r'_n − 16·C_n``: the column's low nibble (0..15)
M5    ``E_n = ⌊low_n / 4⌋`` (0..3), and ``F_n = ⌊X_n / 16⌋`` (0..2) of the regrouped, biased column
      ``X_n = low_n + C_{n−1} + 8·B_{n−1} + A_{n−2} + 15 (+1 at n = 0)`` (1..43): a bias of 15 per
      column adds ``16^K − 1 ≡ −1`` (mod 16^K), so the +1 makes the sum exact, and every column
      is non-negative for the unsigned carries below
M6    ``Y_n = X_n − 16·F_n + F_{n−1}`` (0..17) from exact digits: the low part is ``4·E_n`` plus
      three unit steps; generate ``g_n = [Y_n ≥ 16]``, propagate ``p_n = [Y_n = 15]``
M7    ``mul``: ``out_n += Y_n + c_n − 16·c_{n+1}`` (n < 8), carries by lookahead as in the
      adder (``c_n = Σ_j g_j ∧ p_{j+1} ∧ … ∧ p_{n−1}``, exclusive terms, one step each);
      the carry into column 8 as a channel ``c8`` for the high word
M8    ``mulhi``: ``out_{n−8} += Y_n + c_n − 16·c_{n+1}`` (n ≥ 8), lookahead from ``c8``
====  ==================================================================================

**float32.** ``S_n`` is only as good as its channel (the bank clear leaves ~1e-5 of the previous
value, ×256 on read) and the operand read-outs, and a product feeds later multiplies, so the
result must not inherit that noise: every digit is a step output (exact), and the low nibble is
resolved down to units by steps (M5, M6); the noisy ``S_n`` only ever enters thresholds.

**bfloat16** (docs/circuit.md, "Units and margins"): a step's pre-activations are exact while it is
on at most 63.5 beyond its threshold. M3..M6 step on ranges where that always holds; M2 holds it
while ``|S_n| ≤ 191``, and ``S_n / 256`` is an exact bfloat16 channel while ``|S_n| ≤ 256``. So a
multiply is exact in bfloat16 when every signed-digit column sum is within ±191: e.g. when both
operands are within ±1024 (digits 0..2 only, |e_2| ≤ 4: columns ≤ 128, +16 for ``mulhi.u``), or
one is within ±255 whatever the other (|e_2| ≤ 1: columns ≤ 136, +16); ``benchmarks/mul_columns.py``
lists the largest column of every kernel's multiplies. Thresholds above 63.75 have gate constants that
bfloat16 cannot hold; the constant is split between the anchor and the op flags (exactly one is
on whenever the step matters), each part exact (``LayerSpec.flag_step(..., bf16_exact=True)``).

Scale: ``S_n`` is kept as ``S_n / 256`` in the residual (|·| ≤ 2.1), so the columns add almost
nothing to the residual's RMS. Decisions are scale-free, so the scaled channel is read back with
weight 256.

Every step and the passes into ``out`` are gated by the op flags; only the M1 products are
not (they are cleared at M6 whatever the op). Eight layers are longer than the slot period,
so a slot's product is ready two slots later: the kernel compiler never lets the next
instruction of a block read it (``BlockLimits.mul_latency``).
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
BIAS = 15
"""Added to every regrouped column: ``BIAS·Σ_{n<K} 16^n = 16^K − 1 ≡ −1`` (mod 16^K)."""
DIGIT_MAX = 8
"""|e_i| ≤ 8 for a signed digit."""


def products(n: int) -> int:
    """Digit pairs (i, j) with i + j = n, i, j < 8."""
    return max(0, min(n + 1, 2 * NIB - 1 - n))


def column_bound(n: int) -> int:
    """Largest |S_n|: the digit products, and for the high columns the ``mulhi.u`` terms."""
    return DIGIT_MAX ** 2 * products(n) + (2 * DIGIT_MAX if n >= NIB else 0)


def signed_digit(x: Group, sgn: Group, lane: int, i: int) -> Lin:
    """``x_i − 16·s_i + s_{i−1}``: nibble i of x as a signed digit (−8..8)."""
    return lin({x[(lane, i)]: 1.0, sgn[(lane, i)]: -16.0}, {sgn[(lane, i - 1)]: 1.0} if i else {})


def digit_steps(L: LayerSpec, anchor: int, x: Lin, lo: int, hi: int, unit: int, out: int, flags: Lin,
                offset: float = 0.5) -> None:
    """``out += round(Σ x / unit)`` (``offset`` ½: the remainder ``Σ x − unit·out`` lies in
    [−unit/2, unit/2 − 1]) or ``⌊Σ x / unit⌋`` (``offset`` 0: in [0, unit − 1]) for integer ``Σ x``
    in [lo, hi]: steps ``[Σ x ≥ unit·(k − offset)]`` up for the positive thresholds and
    reversed steps ``[−Σ x ≥ …]`` down for the others, so each is on only beyond its threshold."""
    neg = {i: -w for i, w in x.items()}
    k = 1
    while unit * (k - offset) <= hi:
        L.flag_step(anchor, x, unit * (k - offset) - 0.5, {out: 1.0}, flags, bf16_exact=True)
        k += 1
    k = 1
    while unit * (k - 1 + offset) + 1 <= -lo:   # Σ x ≤ −unit·(k − 1 + offset) − 1
        L.flag_step(anchor, neg, unit * (k - 1 + offset) + 0.5, {out: -1.0}, flags, bf16_exact=True)
        k += 1


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
        "S": bank("S", range(COLS), "signed-digit column sums S_n = Σ_{i+j=n} e_i·d_j (+ mulhi.u terms), stored / 256"),
        "A": bank("A", range(COLS), "round(S_n / 256)"),
        "B": bank("B", range(COLS), "round(r_n / 128) of r_n = S_n − 256·A_n"),
        "C": bank("C", range(COLS), "⌊r'_n / 16⌋ of r'_n = r_n − 128·B_n"),
        "E": bank("E", range(COLS), "⌊low_n / 4⌋ of the low nibble low_n = r'_n − 16·C_n"),
        "F": bank("F", range(COLS), "⌊X_n / 16⌋ of the regrouped, biased column X_n"),
        "Y": bank("Y", range(COLS), "column n regrouped to at most 17"),
        "g": bank("g", range(COLS), "carry generate [Y_n ≥ 16]"),
        "p": bank("p", range(COLS), "carry propagate [Y_n = 15]"),
        "c8": bank("c8", range(1), "carry into column 8 (the high word)"),
    }


def build_mul(layers: list[LayerSpec], space: Space, anchor: int, a: Group, b: Group, sa: Group, sb: Group,
              out: Group, flags: dict[str, int], lanes: int) -> None:
    """``out +=`` the low word of ``a·b`` if ``flags["mul"]`` is on, the high word (unsigned or
    signed) if ``flags["mulhi.u"]`` / ``flags["mulhi.s"]`` is (exclusive 0/1 channels). ``sa``,
    ``sb``: the top bit of every nibble of a and b (0/1).
    ``layers``: the DEPTH consecutive layers whose MLPs are used."""
    if len(layers) != DEPTH:
        raise ValueError(f"build_mul needs {DEPTH} layers, got {len(layers)}")
    M1, M2, M3, M4, M5, M6, M7, M8 = layers
    bk = mul_banks(space, lanes)
    S, A, B, C, E, F, Y, G, P, C8 = (bk[k] for k in ("S", "A", "B", "C", "E", "F", "Y", "g", "p", "c8"))
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
        e = [signed_digit(a, sa, lane, i) for i in range(NIB)]
        d = [signed_digit(b, sb, lane, j) for j in range(NIB)]
        s = {n: {S[(lane, n)]: S_SCALE} for n in range(COLS)}              # S_n, read back at full scale
        r = {n: lin(s[n], {A[(lane, n)]: -256.0}) for n in range(COLS)}       # in [−128, 127]
        r2 = {n: lin(r[n], {B[(lane, n)]: -128.0}) for n in range(COLS)}      # in [−64, 63]
        low = {n: lin(r2[n], {C[(lane, n)]: -16.0}) for n in range(COLS)}        # 0..15
        # M1: S_n = Σ (e_i + 8)·d_j − 8·Σ d_j (e_i + 8 ≥ 0: one neuron per pair; the second sum is
        # linear, one neuron per column), and for mulhi.u s_7·d_j + t_7·e_j into column 8 + j
        # (gate G·(s_7 + flag − 1): G when both are on, else ≤ 0)
        for i in range(NIB):
            for j in range(NIB):
                M1.neuron(lin({c: GAIN * w for c, w in e[i].items()}, (anchor, GAIN * DIGIT_MAX)), d[j],
                          {S[(lane, i + j)]: 1.0 / (GAIN * S_SCALE)})
        for n in range(2 * NIB - 1):
            ds = lin(*(d[n - i] for i in range(NIB) if 0 <= n - i < NIB))
            M1.neuron({anchor: GAIN}, ds, {S[(lane, n)]: -DIGIT_MAX / (GAIN * S_SCALE)})
        for top, digits in ((sa[(lane, NIB - 1)], d), (sb[(lane, NIB - 1)], e)):
            for j in range(NIB):
                M1.neuron({top: GAIN, hu: GAIN, anchor: -GAIN}, digits[j], {S[(lane, NIB + j)]: 1.0 / (GAIN * S_SCALE)})
        for n in range(COLS):
            # M2..M4: the three balanced digits
            digit_steps(M2, anchor, s[n], -column_bound(n), column_bound(n), 256, A[(lane, n)], on(n))
            digit_steps(M3, anchor, r[n], -128, 127, 128, B[(lane, n)], on(n))
            digit_steps(M4, anchor, r2[n], -64, 63, 16, C[(lane, n)], on(n), offset=0)
            # M5: E_n = ⌊low_n / 4⌋, and F_n = ⌊X_n / 16⌋ of X_n = low_n + carried + BIAS (+1 at n = 0)
            carried = lin({C[(lane, n - 1)]: 1.0, B[(lane, n - 1)]: 8.0} if n >= 1 else {},
                          {A[(lane, n - 2)]: 1.0} if n >= 2 else {}, (anchor, BIAS + (1 if n == 0 else 0)))
            for k in range(1, 4):
                M5.flag_step(anchor, low[n], 4 * k - 0.5, {E[(lane, n)]: 1.0}, on(n), bf16_exact=True)
            for k in range(1, 3):
                M5.flag_step(anchor, lin(low[n], carried), 16 * k - 0.5, {F[(lane, n)]: 1.0}, on(n), bf16_exact=True)
            # M6: Y_n = X_n − 16·F_n + F_{n−1} (≤ 17) from exact digits only: the low part is 4·E_n
            # plus three unit steps on low_n − 4·E_n, so the noise of S_n never reaches the result.
            # Generate / propagate are decided on the same value written with the noisy low_n.
            spill = lin({F[(lane, n)]: -16.0}, {F[(lane, n - 1)]: 1.0} if n >= 1 else {})
            M6.gated(anchor, gate(n), OFF_WEIGHT, lin({E[(lane, n)]: 4.0}, carried, spill), {Y[(lane, n)]: 1.0})
            for k in range(1, 4):
                M6.flag_step(anchor, lin(low[n], {E[(lane, n)]: -4.0}), k - 0.5, {Y[(lane, n)]: 1.0}, on(n), bf16_exact=True)
            y = lin(low[n], carried, spill)
            M6.flag_step(anchor, y, 15.5, {G[(lane, n)]: 1.0, P[(lane, n)]: -1.0}, on(n), bf16_exact=True)
            M6.flag_step(anchor, y, 14.5, {P[(lane, n)]: 1.0}, on(n), bf16_exact=True)
        # M7 (low word) and M8 (high word): out = Y_n + c_n − 16·c_{n+1}; the term (j, n) of carry
        # c_n is g_j ∧ p_{j+1} ∧ … ∧ p_{n−1}; the high word starts from the carry channel c8
        c8 = C8[(lane, 0)]
        for n in range(NIB):
            M7.gated(anchor, {lo: OFF_WEIGHT}, OFF_WEIGHT, {Y[(lane, n)]: 1.0}, {out[(lane, n)]: 1.0})
            M8.gated(anchor, {f: OFF_WEIGHT for f in hi}, OFF_WEIGHT, lin({Y[(lane, NIB + n)]: 1.0}, {c8: 1.0} if n == 0 else {}),
                     {out[(lane, n)]: 1.0})
        for n in range(1, NIB + 1):
            low_out, high_out = {out[(lane, n - 1)]: -16.0}, {out[(lane, n - 1)]: -16.0}
            if n < NIB:
                low_out[out[(lane, n)]] = 1.0
                high_out[out[(lane, n)]] = 1.0
            for j in range(n):
                terms = {G[(lane, j)]: 1.0, **{P[(lane, m)]: 1.0 for m in range(j + 1, n)}}
                M7.flag_step(anchor, terms, len(terms) - 0.5, low_out, lo)
                if n == NIB:
                    M7.flag_step(anchor, terms, len(terms) - 0.5, {c8: 1.0}, hi)
                hterms = {G[(lane, NIB + j)]: 1.0, **{P[(lane, NIB + m)]: 1.0 for m in range(j + 1, n)}}
                M8.flag_step(anchor, hterms, len(hterms) - 0.5, high_out, hi)
            cterms = {c8: 1.0, **{P[(lane, NIB + m)]: 1.0 for m in range(n)}}
            M8.flag_step(anchor, cterms, len(cterms) - 0.5, high_out, hi)
    # each bank is cleared in the layer where the next slot's multiply writes it (or earlier), as
    # late as its last reader allows: that keeps the clears out of M6, the widest layer
    M6.clear(anchor, S)  # next M1 is this M6
    M7.clear(anchor, A, E, F)  # next M2 is this M7
    M8.clear(anchor, B, C, Y, G, P, C8)
    fl = [grp.name for grp in space.groups.values() if lo in grp.indices][:1]
    M1.reads += [a.name, b.name, sa.name, sb.name, *fl]
    M1.writes.append(S.name)
    for L, rd, wr in ((M2, [S.name], [A.name]), (M3, [S.name, A.name], [B.name]),
                      (M4, [S.name, A.name, B.name], [C.name]), (M5, [S.name, A.name, B.name, C.name], [E.name, F.name]),
                      (M6, [S.name, A.name, B.name, C.name, E.name, F.name], [Y.name, G.name, P.name]),
                      (M7, [Y.name, G.name, P.name], [out.name, C8.name]),
                      (M8, [Y.name, G.name, P.name, C8.name], [out.name])):
        L.reads += [*rd, *fl]
        L.writes += wr
