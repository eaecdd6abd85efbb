"""The multiplier circuit alone (compiler/circuit/alu_mul.py) run by stock transformers.

Residual vectors are fed directly (``inputs_embeds``): the operands' nibbles and their top bits
(what the operand mux delivers), one op flag. ``hidden_states[8]`` is the residual after the
multiplier's eight layers. Expected words are Python integer products. float32 must be exact on
every operand; bfloat16 must be exact whenever every signed-digit column sum is within ±191
(the bound alu_mul.py states, computed here independently from the operands).
"""

from __future__ import annotations

import random

import pytest
import torch

from compiler.circuit.alu_mul import DEPTH, MUL_OPS, build_mul
from compiler.circuit.checkpoint import CircuitSpec, build_model, constant_embedding
from compiler.circuit.layers import LayerSpec
from compiler.circuit.space import Space
from compiler.circuit.tokens import add_constant_groups
from compiler.circuit.words import value_group

LANES = 4
MASK = 0xFFFFFFFF
EDGES = [0, 1, 2, 3, 7, 8, 15, 16, 0xFF, 0x7FFFFFFF, 0x80000000, 0xFFFFFFFF, 0xFFFFFFFE, 0xFFFFFFFD,
         0x55555556, 0xAAAAAAAB, 0x12345678, 0x77777777, 0x88888888, 0x0000FFFF, 0xFFFF0000, 0x00010001,
         0xCCCCCCCD, 0x9E3779B1, 1000, (-1000) & MASK, 0x7FFF, (-0x8000) & MASK]


def build_spec() -> CircuitSpec:
    space = Space("mul-test")
    add_constant_groups(space)
    anchor = space["anchor"].start
    op = space.add("op", MUL_OPS, kind="scalar", doc="op flags (0/1, at most one on)", stage="decode")
    a = value_group(space, "A", "operand a", "decode", lanes=LANES)
    b = value_group(space, "B", "operand b", "decode", lanes=LANES)
    sa = value_group(space, "Asg", "top bits of a's nibbles", "decode", lanes=LANES)
    sb = value_group(space, "Bsg", "top bits of b's nibbles", "decode", lanes=LANES)
    out = value_group(space, "OUT", "result", "execute", lanes=LANES)
    specs = [LayerSpec(i, "execute", f"multiplier layer {i + 1}/{DEPTH}") for i in range(DEPTH)]
    build_mul(specs, space, anchor, a, b, sa, sb, out, {n: op[n] for n in MUL_OPS}, LANES)
    return CircuitSpec(space=space, anchor=anchor, vocab=["<pad>", "<bos>", "<unk>", "END"], embed={},
                       unembed={}, layers=specs + [LayerSpec(DEPTH, "test", "empty")])


def nibbles(v: int) -> list[int]:
    return [(v >> (4 * i)) & 0xF for i in range(8)]


def s32(v: int) -> int:
    return v - (1 << 32) if v & 0x80000000 else v


def expected(op: str, x: int, y: int) -> int:
    if op == "mul":
        return (x * y) & MASK
    if op == "mulhi.u":
        return (x * y) >> 32
    return ((s32(x) * s32(y)) >> 32) & MASK


def largest_column(x: int, y: int, op: str) -> int:
    """max |Σ_{i+j=n} e_i·d_j| over the columns the op needs (signed digits, plus mulhi.u's terms)."""
    def digits(v):
        n = nibbles(v)
        s = [int(k >= 8) for k in n]
        return [n[i] - 16 * s[i] + (s[i - 1] if i else 0) for i in range(8)], s[7]
    (e, s7), (d, t7) = digits(x), digits(y)
    cols = [sum(e[i] * d[n - i] for i in range(8) if 0 <= n - i < 8) for n in range(16)]
    if op == "mulhi.u":
        for j in range(8):
            cols[8 + j] += s7 * d[j] + t7 * e[j]
    return max(abs(c) for c in (cols[:8] if op == "mul" else cols))


def cases(n_pos: int, seed: int) -> list[list[tuple[int, int]]]:
    rng = random.Random(seed)
    pairs = [(x, y) for x in EDGES for y in EDGES]
    while len(pairs) < n_pos * LANES:
        k = rng.choice([3, 7, 11, 15, 20, 32])
        x, y = rng.getrandbits(k), rng.getrandbits(rng.choice([3, 7, 11, 15, 20, 32]))
        pairs.append((x if rng.random() < 0.5 else (-x) & MASK, y if rng.random() < 0.5 else (-y) & MASK))
    pairs = pairs[:n_pos * LANES]
    return [pairs[p * LANES:(p + 1) * LANES] for p in range(n_pos)]


def run(spec: CircuitSpec, model, n_pos: int, seed: int = 1):
    """Every op × position × lane through the model; returns rows (op, a, b, got, want)."""
    sp = spec.space
    chans = {g: [sp[g][(l, i)] for l in range(LANES) for i in range(8)] for g in ("A", "B", "Asg", "Bsg", "OUT")}
    cs = cases(n_pos, seed)
    X = torch.zeros(len(MUL_OPS), n_pos, spec.hidden, dtype=torch.float64)
    for i, v in constant_embedding(spec).items():
        X[..., i] = v
    for g, k in (("A", 0), ("B", 1)):
        nib = torch.tensor([[nibbles(p[k]) for p in lanes] for lanes in cs], dtype=torch.float64).reshape(n_pos, -1)
        X[:, :, chans[g]] = nib
        X[:, :, chans[g + "sg"]] = (nib >= 8).to(torch.float64)
    for k, name in enumerate(MUL_OPS):
        X[k, :, sp["op"][name]] = 1.0
    with torch.no_grad():
        h = model(inputs_embeds=X.to(model.dtype), output_hidden_states=True).hidden_states[DEPTH]
    vals = h[..., chans["OUT"]].to(torch.float64).reshape(len(MUL_OPS), n_pos, LANES, 8)
    got = (vals.round().clamp(0, 15) * torch.tensor([16.0 ** i for i in range(8)], dtype=torch.float64)).sum(-1)
    rows = []
    for k, name in enumerate(MUL_OPS):
        for p, lanes in enumerate(cs):
            for lane, (x, y) in enumerate(lanes):
                rows.append((name, x, y, int(got[k, p, lane]), expected(name, x, y)))
    margin = (vals - vals.round()).abs().max().item()
    return rows, margin


@pytest.fixture(scope="module")
def spec():
    return build_spec()


def test_float32_every_operand(spec):
    rows, margin = run(spec, build_model(spec, torch.float32), n_pos=256)
    bad = [r for r in rows if r[3] != r[4]]
    print(f"\nfloat32: {len(rows) - len(bad)}/{len(rows)} exact, worst |x - round(x)| = {margin:.3g}")
    assert not bad, [(o, hex(x), hex(y), hex(g), hex(w)) for o, x, y, g, w in bad[:8]]
    assert margin < 1e-3


def test_bfloat16_where_the_columns_are_small(spec):
    rows, _ = run(spec, build_model(spec, torch.bfloat16), n_pos=256)
    small = [r for r in rows if largest_column(r[1], r[2], r[0]) <= 191]
    bad = [r for r in small if r[3] != r[4]]
    big = [r for r in rows if r not in small]
    print(f"\nbfloat16: {len(small) - len(bad)}/{len(small)} exact with columns within ±191; "
          f"{sum(r[3] == r[4] for r in big)}/{len(big)} exact beyond")
    assert len(small) > len(rows) // 2
    assert not bad, [(o, hex(x), hex(y), hex(g), hex(w)) for o, x, y, g, w in bad[:8]]
