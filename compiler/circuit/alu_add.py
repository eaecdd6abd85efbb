"""Exact 32-bit add / subtract for 4 lanes: three SwiGLU MLPs (carry-lookahead over nibbles).

A 32-bit value of one lane is eight scalar channels ``(lane, nibble)`` holding 0..15
(little-endian nibbles); :func:`value_group` allocates the 4-lane bundle.

:func:`build_add_sub` writes ``out += (a ± b) mod 2**32`` with three consecutive layers
(only their MLPs; no heads). Per lane, with ``s_i = a_i + b'_i`` where ``b' = b`` (add) or
``15 − b`` (subtract, carry-in 1 folded into nibble 0):

1. **generate / propagate** — ``g_i = [s_i (+cin) ≥ 16]`` for nibbles 0..6 and
   ``p_i = [s_i == 15]`` for nibbles 1..6. Two steps per nibble and op: the step at 15.5
   writes ``+1`` to ``g`` and ``−1`` to ``p``, the step at 14.5 writes ``+1`` to ``p``.
   Each op has its own steps, gated by its flag through the up projection
   (:func:`flag_step`): an off op's steps are exactly 0.
2. **carries** — ``c_i = Σ_j g_j ∧ p_{j+1} ∧ … ∧ p_{i−1}`` for nibbles 2..7 (the terms
   are mutually exclusive: ``j`` is the highest generating nibble below ``i``); each
   term is one AND step over 0/1 channels. ``c_1`` is ``g_0`` itself.
3. **sum** — ``out_i += s_i + c_i − 16·c_{i+1}`` (``c_{i+1}`` is the carry out of nibble
   ``i``), passed by one gated neuron per op. Nibble 7's carry out is not computed by the
   lookahead: a step per op subtracts ``16·[s_7 + c_7 ≥ 16]``.

Every neuron that writes ``out`` is gated by an op flag: the pass neurons by a gate whose
off pre-activation is −2.5·GAIN (``silu`` is exactly −0.0 there, unlike ``gated``'s usual
−GAIN/2, which leaks ~1e-20·value), the wrap steps by ``up = flag``. With both flags 0,
``out`` is left bit-for-bit unchanged.

Margins: every decision compares integers with half-integer thresholds × anchor, so it is
scale-free. Output amplitudes carry the RMS drift: ``out`` is off by about
``16·Σv²/(ANCHOR²·hidden)`` (Σv² = all residual content besides the constant channels), 0.05 at
``Σv² = 0.003·ANCHOR²·hidden``.

Neurons (4 lanes): layer 1 208, layer 2 216, layer 3 80.
"""

from __future__ import annotations

from compiler.circuit import layers as _layers
from compiler.circuit import words as _words
from compiler.circuit.layers import LayerSpec, Lin
from compiler.circuit.space import Group, Space

LANES = 4
NIBBLES = 8
OFF_WEIGHT = 3.0
"""Flag weight of the output gates: off → pre-activation −(OFF_WEIGHT − ½)·GAIN (silu == −0)."""


def value_group(space: Space, name: str, doc: str, stage: str) -> Group:
    """A 4-lane 32-bit value (see :func:`compiler.circuit.words.value_group`)."""
    return _words.value_group(space, name, doc, stage, lanes=LANES)


def flag_step(layer: LayerSpec, anchor: int, x: Lin, t: float, out: Lin, flag: int) -> None:
    """``out += flag · [Σ x ≥ t]`` (see :meth:`LayerSpec.flag_step`)."""
    layer.flag_step(anchor, x, t, out, flag)


def _ch(lane: int, i: int) -> tuple[int, int]:
    return (lane, i)


def build_add_sub(layers: list[LayerSpec], space: Space, anchor: int, a: Group, b: Group, out: Group,
                  is_add: int, is_sub: int, prefix: str, carry_out: Group | None = None) -> dict[str, Group]:
    """``out += (a + b) mod 2**32`` if ``is_add``, ``(a − b) mod 2**32`` if ``is_sub``, else nothing.

    ``layers``: three consecutive layers (their MLPs are used). ``is_add`` / ``is_sub``:
    residual indices of 0/1 flags, at most one of them 1. Intermediates are allocated in
    ``space`` as ``<prefix>.g``, ``<prefix>.p`` and ``<prefix>.c``.
    """
    if len(layers) != 3:
        raise ValueError(f"build_add_sub needs exactly 3 layers, got {len(layers)}")
    for grp in (a, b, out):
        if len(grp) != LANES * NIBBLES or any(_ch(l, i) not in grp for l in range(LANES) for i in range(NIBBLES)):
            raise ValueError(f"group {grp.name!r} is not a 4-lane value group (see value_group)")
    if is_add == is_sub:
        raise ValueError("is_add and is_sub must be different channels")
    L1, L2, L3 = layers
    stage = L1.stage
    flag_groups = list(dict.fromkeys(grp.name for f in (is_add, is_sub)
                                     for grp in space.groups.values() if f in grp.indices))
    g = space.shared(f"{prefix}.g", [_ch(l, i) for l in range(LANES) for i in range(NIBBLES - 1)], kind="scalar",
                  stage=stage, doc="adder generate: [a_i + b'_i (+cin at nibble 0) >= 16], 0/1 "
                  "(b' = b for add, 15 - b for sub); g[n0] is also the carry into nibble 1")
    p = space.shared(f"{prefix}.p", [_ch(l, i) for l in range(LANES) for i in range(1, NIBBLES - 1)], kind="scalar",
                  stage=stage, doc="adder propagate: [a_i + b'_i == 15], 0/1")
    c = space.shared(f"{prefix}.c", [_ch(l, i) for l in range(LANES) for i in range(2, NIBBLES)], kind="scalar",
                  stage=stage, doc="adder carry into nibble i (2..7), 0/1 (carry-lookahead over g/p)")
    ops = ((is_add, +1.0, 0.0, 0.0), (is_sub, -1.0, 15.0, 1.0))  # flag, b sign, constant, carry-in

    L1.reads += [a.name, b.name, *flag_groups]
    L1.writes += [g.name, p.name]
    L2.reads += [g.name, p.name]
    L2.writes += [c.name]
    L3.reads += [a.name, b.name, *flag_groups, g.name, c.name]
    L3.writes += [out.name] + ([carry_out.name] if carry_out is not None else [])

    def carry(lane: int, i: int) -> Lin:
        """The 0/1 channel holding the carry into nibble ``i`` (``{}`` for nibble 0)."""
        if i == 0:
            return {}
        return {g[_ch(lane, 0)]: 1.0} if i == 1 else {c[_ch(lane, i)]: 1.0}

    for lane in range(LANES):
        A = [a[_ch(lane, i)] for i in range(NIBBLES)]
        B = [b[_ch(lane, i)] for i in range(NIBBLES)]

        # ---- layer 1: generate / propagate, per op (s_i + cin_i = x + k, x linear, k constant)
        for flag, sign, k0, cin in ops:
            for i in range(NIBBLES - 1):
                x = {A[i]: 1.0, B[i]: sign}
                k = k0 + (cin if i == 0 else 0.0)
                gi = g[_ch(lane, i)]
                if i == 0:
                    flag_step(L1, anchor, x, 15.5 - k, {gi: 1.0}, flag)
                else:
                    pi = p[_ch(lane, i)]
                    flag_step(L1, anchor, x, 15.5 - k, {gi: 1.0, pi: -1.0}, flag)
                    flag_step(L1, anchor, x, 14.5 - k, {pi: 1.0}, flag)

        # ---- layer 2: carry into nibble i = OR of exclusive terms g_j ∧ p_{j+1} ∧ … ∧ p_{i-1}
        for i in range(2, NIBBLES):
            for j in range(i):
                terms = {g[_ch(lane, j)]: 1.0, **{p[_ch(lane, m)]: 1.0 for m in range(j + 1, i)}}
                L2.step(anchor, terms, len(terms) - 0.5, {c[_ch(lane, i)]: 1.0})

        # ---- layer 3: out_i = s_i + cin_i + c_i − 16·c_{i+1}, gated by the op flag
        for flag, sign, k0, cin in ops:
            for i in range(NIBBLES):
                k = k0 + (cin if i == 0 else 0.0)
                value = _layers.lin({A[i]: 1.0, B[i]: sign}, carry(lane, i),
                                    {anchor: k} if k else {},
                                    {ch: -16.0 * w for ch, w in carry(lane, i + 1).items()} if i + 1 < NIBBLES else {})
                L3.gated(anchor, {flag: OFF_WEIGHT}, OFF_WEIGHT, value, {out[_ch(lane, i)]: 1.0})
            # nibble 7: its carry out is [a_7 + b'_7 + c_7 >= 16]
            x7 = _layers.lin({A[7]: 1.0, B[7]: sign}, carry(lane, 7))
            wrap = {out[_ch(lane, 7)]: -16.0}
            if carry_out is not None and flag == is_sub:  # subtract: carry out = [a >= b] unsigned
                wrap[carry_out[lane]] = 1.0
            flag_step(L3, anchor, x7, 15.5 - k0, wrap, flag)
    return {"g": g, "p": p, "c": c}
