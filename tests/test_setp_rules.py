"""The circuit's ``setp`` table (``execute.SETP_RULES``): every mode gives Python's comparison, and
every step of it is exact in bfloat16.

Expected values are Python's own comparisons of the operands (signed or unsigned as the mode
says); the table is evaluated as the circuit evaluates it — steps on the subtractor's carry out,
the sum of the difference's nibbles and the sign term — without building a model.
"""

import random

import pytest

from compiler.circuit.execute import SETP_ONE, SETP_RULES
from compiler.circuit.layers import GAIN

MASK = 0xFFFFFFFF
SIGNED = {"eq", "ne", "lt", "le", "gt", "ge"}
WANT = {"eq": lambda a, b: a == b, "ne": lambda a, b: a != b, "lt": lambda a, b: a < b,
        "le": lambda a, b: a <= b, "gt": lambda a, b: a > b, "ge": lambda a, b: a >= b}
UNSIGNED = {"lo": "lt", "ls": "le", "hi": "gt", "hs": "ge"}
EDGES = [0, 1, 2, 15, 16, 0x7FFFFFFF, 0x80000000, 0x80000001, 0xFFFFFFFE, MASK, 0x12345678, 0x0FFFFFFF]


def _signed(x: int) -> int:
    return x - (1 << 32) if x & 0x80000000 else x


def _terms(a: int, b: int, signed: bool) -> dict[str, int]:
    """What the circuit feeds the table: the subtractor's carry out, the nibble sum of a − b and
    u = (1 − C) + X (X: the operands' signs differ, for the signed modes only)."""
    c = int(a >= b)
    d = (a - b) & MASK
    x = int(signed and (a >> 31) != (b >> 31))
    return {"c": c, "zsum": sum((d >> (4 * i)) & 15 for i in range(8)), "u": 1 - c + x}


def _setp(mode: str, terms: dict[str, int]) -> int:
    out = int(mode in SETP_ONE)
    for form, t, modes in SETP_RULES:
        if sum(k * terms[name] for name, k in form.items()) >= t:
            out += modes.get(mode, 0)
    return out


def _pairs():
    rng = random.Random(7)
    pairs = [(a, b) for a in EDGES for b in EDGES]
    pairs += [(rng.getrandbits(32), rng.getrandbits(32)) for _ in range(2000)]
    pairs += [(a, (a + rng.choice([-1, 1])) & MASK) for a in (rng.getrandbits(32) for _ in range(200))]
    return pairs


@pytest.mark.parametrize("mode", [*WANT, *UNSIGNED])
def test_every_mode_gives_pythons_comparison(mode):
    signed = mode in SIGNED
    want = WANT[mode] if signed else WANT[UNSIGNED[mode]]
    for a, b in _pairs():
        x, y = (_signed(a), _signed(b)) if signed else (a, b)
        assert _setp(mode, _terms(a, b, signed)) == int(want(x, y)), (mode, hex(a), hex(b))


def test_every_step_is_exact_in_bfloat16():
    """A step's two pre-activations are GAIN·(x − t ± ¼) = 32·(4m + 2 ± 1) for x − t = m + ½; bfloat16
    holds them (8 significant bits) while 4m + 3 ≤ 255. Over every value the terms can take, a
    step that is on must stay within that."""
    import torch

    seen = {(c, z, u) for c in (0, 1) for z in range(121) for u in (1 - c, 2 - c)}
    for form, t, _modes in SETP_RULES:
        for c, z, u in seen:
            x = sum(k * {"c": c, "zsum": z, "u": u}[n] for n, k in form.items())
            if x < t:
                continue
            for shoulder in (0.25, -0.25):
                g = torch.tensor(GAIN * (x - t + shoulder), dtype=torch.float64)
                assert float(g.to(torch.bfloat16)) == float(g), (form, t, x)
