"""The 4-lane 32-bit adder/subtractor circuit (compiler/circuit/alu_add.py) run by stock transformers.

Residual vectors are fed directly (``inputs_embeds``); ``hidden_states[3]`` is the residual
after the adder's three layers (build_model appends an all-zero full-attention layer).
float32 must be exact with margin; bfloat16 is measured and printed (``pytest -s``), not
asserted.
"""

from __future__ import annotations

import random

import pytest
import torch

from compiler.circuit import layers
from compiler.circuit.alu_add import LANES, NIBBLES, build_add_sub, value_group
from compiler.circuit.checkpoint import CircuitSpec, build_model, constant_embedding
from compiler.circuit.layers import ANCHOR, LayerSpec
from compiler.circuit.space import Space
from compiler.circuit.tokens import add_constant_groups

MASK = 0xFFFFFFFF
EDGES = [0, 1, 0xF, 0x10, 0xFFFFFFFF, 0xFFFFFFFE, 0x80000000, 0x7FFFFFFF, 0x0FFFFFFF, 0xF0000000,
         0x12345678, 0xEDCBA988, 0x00FF00FF, 0xFF00FF01]
OPS = ("add", "sub", "none")
ADDER_GROUPS = ("add.g", "add.p", "add.c")


def build_spec(pad_to: int = 0) -> CircuitSpec:
    """The adder alone; ``pad_to``: pad the hidden size with channels no layer touches."""
    space = Space("adder-test")
    add_constant_groups(space)
    anchor = space["anchor"].start
    op = space.add("op", ["add", "sub"], kind="scalar", doc="op flags (0/1, at most one on)", stage="decode")
    a = value_group(space, "A", "operand a", "decode")
    b = value_group(space, "B", "operand b", "decode")
    out = value_group(space, "OUT", "result", "execute")
    specs = [LayerSpec(i, "execute", f"adder layer {i + 1}/3") for i in range(3)]
    build_add_sub(specs, space, anchor, a, b, out, op["add"], op["sub"], "add")
    if pad_to:
        space.add("pad", range(pad_to - space.size), kind="scalar", doc="other state", stage="token")
    # one empty layer after the adder: the last hidden state transformers returns is normalised
    return CircuitSpec(space=space, anchor=anchor, vocab=["<pad>", "<bos>", "<unk>", "END"], embed={},
                       unembed={}, layers=specs + [LayerSpec(3, "test", "empty")])


def nibbles(v: int) -> list[int]:
    return [(v >> (4 * i)) & 0xF for i in range(NIBBLES)]


def cases(n_pos: int, seed: int = 1) -> list[list[tuple[int, int]]]:
    """n_pos positions × LANES (a, b) pairs: all edge pairs first, then carry-heavy random values."""
    rng = random.Random(seed)
    pairs = [(x, y) for x in EDGES[:8] for y in EDGES[:8]]
    pairs += [(x, y) for x in EDGES for y in (1, MASK, x, MASK - x, (-x) & MASK)]

    def rnd() -> int:  # nibbles drawn mostly from {0, 1, 14, 15}: long propagate / borrow chains
        return sum(rng.choice([0, 15, 15, 14, 1, rng.randrange(16)]) << (4 * i) for i in range(NIBBLES))

    while len(pairs) < n_pos * LANES:
        x = rnd()
        pairs.append(rng.choice([(x, rnd()), (rng.getrandbits(32), rng.getrandbits(32)),
                                 (x, (MASK - x + rng.choice([0, 1, -1])) & MASK), (x, x)]))
    pairs = pairs[:n_pos * LANES]
    return [pairs[p * LANES:(p + 1) * LANES] for p in range(n_pos)]


def channels(group) -> list[int]:
    return [group[(lane, i)] for lane in range(LANES) for i in range(NIBBLES)]


def run(spec: CircuitSpec, model, dtype, n_pos: int = 64, other: float = 0.0):
    """ops × positions × lanes cases through the model.

    Rows of op "none" start with ``out = a`` (and must keep it); the others with ``out = 0``.
    ``other``: Σv² of content put into the "pad" channels (state of the rest of a machine).
    Returns (decoded, expected, worst |x − round(x)|, out values, input, residual after layer 3).
    """
    sp = spec.space
    A, B, OUT, op = sp["A"], sp["B"], sp["OUT"], sp["op"]
    cs = cases(n_pos)
    na = torch.tensor([[nibbles(x) for x, _ in lanes] for lanes in cs], dtype=torch.float64).reshape(n_pos, -1)
    nb = torch.tensor([[nibbles(y) for _, y in lanes] for lanes in cs], dtype=torch.float64).reshape(n_pos, -1)
    X = torch.zeros(len(OPS), n_pos, spec.hidden, dtype=torch.float64)
    for i, v in constant_embedding(spec).items():
        X[..., i] = v
    X[:, :, channels(A)] = na
    X[:, :, channels(B)] = nb
    X[OPS.index("none"), :, channels(OUT)] = na
    if other:
        pad = list(sp["pad"].indices)
        X[..., pad] = torch.tensor([(-1) ** k for k in range(len(pad))], dtype=torch.float64) * (other / len(pad)) ** 0.5
    expected = []
    for k, name in enumerate(OPS):
        if name != "none":
            X[k, :, op[name]] = 1.0
        expected += [{"add": (x + y) & MASK, "sub": (x - y) & MASK, "none": x}[name] for lanes in cs for x, y in lanes]
    X = X.to(dtype)
    with torch.no_grad():
        hs = model(inputs_embeds=X, output_hidden_states=True).hidden_states
    h = hs[3]
    vals = h[..., channels(OUT)].to(torch.float64).reshape(len(OPS), n_pos, LANES, NIBBLES)
    r = vals.round()
    margin = (vals - r).abs().max().item()
    weights = torch.tensor([16 ** i for i in range(NIBBLES)], dtype=torch.float64)
    got = (r.clamp(0, 15) * weights).sum(-1).reshape(-1).long().tolist()
    return got, expected, margin, vals, X, h


@pytest.fixture(scope="module", autouse=True)
def one_thread():
    """The matrices are tiny: intra-op threads only cost (seconds on a loaded 2-core box)."""
    n = torch.get_num_threads()
    torch.set_num_threads(1)
    yield
    torch.set_num_threads(n)


@pytest.fixture(scope="module")
def spec():
    return build_spec()


def test_layout(spec):
    counts = [len(L.neurons) for L in spec.layers]
    print(f"\nadder neurons per layer: {counts}; hidden size {spec.hidden}")
    assert counts == [208, 216, 80, 0]
    assert all(not L.heads for L in spec.layers)
    assert [g for g in spec.space.groups if g.startswith("add.")] == list(ADDER_GROUPS)
    assert all(spec.space[g].doc for g in ADDER_GROUPS)


def check_exact(spec, model, label: str, other: float = 0.0, worst: float = 0.1) -> None:
    got, expected, margin, vals, X, h = run(spec, model, model.dtype, other=other)
    n = len(expected)
    bad = [k for k in range(n) if got[k] != expected[k]]
    print(f"\n{label}: {n - len(bad)}/{n} exact, worst |x - round(x)| = {margin:.3g}")
    assert not bad, [(k, hex(got[k]), hex(expected[k])) for k in bad[:10]]
    assert margin < worst
    # the adder writes nothing but its own intermediates and, when an op is on, out
    sp = spec.space
    mine = [i for g in ADDER_GROUPS for i in sp[g].indices]
    keep = [i for i in range(spec.hidden) if i not in mine and i not in channels(sp["OUT"])]
    assert torch.equal(h[..., keep], X[..., keep])
    # both flags 0: out is bit-for-bit what it was
    none = OPS.index("none")
    assert torch.equal(h[none][..., channels(sp["OUT"])], X[none][..., channels(sp["OUT"])])
    # the anchor and the ballast still dominate the RMS that every norm divides by
    rms = h.to(torch.float64).pow(2).mean(-1).sqrt()
    assert ((rms / ANCHOR - 1).abs() < 5e-3).all()


@pytest.mark.parametrize("hidden", [256, 3648, 4352, 4480, 16384])
def test_the_constant_channels_make_the_norm_read_the_anchor_as_exactly_1(hidden):
    """transformers' own RMSNorm, in float32, on a token of anchor + ballast channels only."""
    from transformers.models.qwen3_5.modeling_qwen3_5 import Qwen3_5RMSNorm

    k = layers.ballast(hidden)
    assert sum(x * x for x in k) == hidden - 1 and max(k) < 256  # < 256: exact in bfloat16 too
    x = torch.zeros(hidden)
    x[0] = ANCHOR
    x[1:5] = torch.tensor([ANCHOR * v for v in k])
    norm = Qwen3_5RMSNorm(hidden)  # weight 0: multiplies by 1 + 0
    with torch.no_grad():
        assert norm(x)[0].item() == 1.0


def test_float32_exact(spec):
    """Outputs are integers to float32 precision: the norm reads the anchor as 1 exactly
    (an anchor read as 1 + 2e-6 once left errors of 1e-4 after a few stages)."""
    check_exact(spec, build_model(spec, torch.float32), "float32", worst=1e-5)


def test_float32_other_state():
    """Content elsewhere in the residual (Σv² = 0.003 of the constant channels' ANCHOR²·hidden)
    only drifts output amplitudes (∝ Σv²/(ANCHOR²·hidden)); the decisions are scale-free."""
    spec = build_spec(pad_to=256)
    check_exact(spec, build_model(spec, torch.float32), "float32 + other state",
                other=0.003 * ANCHOR ** 2 * spec.hidden)


def test_bfloat16_exact(spec):
    """GAIN is a power of two, so every on-side pre-activation (GAIN·(k + ¾), GAIN/2) and down
    weight (2/GAIN) is exact in bfloat16, and so are the constant channels (ANCHOR·k, k < 256).
    The value channels' norm weight ANCHOR − 1 is not (it rounds to ANCHOR: values read 1e-6
    large, below bfloat16's resolution of the residual); the decisions are scale-free and the
    adder is exact there too."""
    check_exact(spec, build_model(spec, torch.bfloat16), "bfloat16")
