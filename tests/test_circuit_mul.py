"""``mul``, ``mulhi.u`` and ``mulhi.s`` in the stock model: edge-case and random operands, forwarded results
(two slots on, the multiplier's latency) and results written back from every slot.

Expected tokens come from the reference interpreter (Python integer products of the operands).
"""

import random

import pytest

from circuit_programs import check_program, load_two, program
from compiler.machine.isa import ZERO, Imm, Instr, Op, Reg
from test_circuit_alu import EDGES

NOP = Instr(Op.MOV, ZERO, (ZERO,))


@pytest.fixture(scope="module")
def model(cfg3_model):
    return cfg3_model[1]


def _prog(seed):
    rng = random.Random(seed)
    I, R = Instr, Reg
    blocks = load_two()
    for k in range(4):
        d = R(7 + k)
        other = rng.choice([R(6), Imm(rng.choice(EDGES))])
        # slot 0 multiplies, slot 2 uses the forwarded product; then a multiply in the last slot
        blocks.append([I(Op.MUL, d, (R(5), other)), NOP, I(Op.MUL, R(12), (d, R(6)))])
        blocks.append([I(Op.ADD, R(5), (R(5), Imm(rng.choice(EDGES)))), I(Op.XOR, R(6), (R(6), d)),
                       I(Op.MUL, R(13), (R(6), R(6)))])
    return program(blocks, [("a", True)])


def _values(seed):
    rng = random.Random(seed)
    return ",".join(str(rng.choice(EDGES) if rng.random() < 0.5 else rng.randrange(-2**31, 2**31)) for _ in range(8))


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_mul_programs(model, seed):
    bad = check_program(model, _prog(seed), {"a": _values(seed)})
    assert not bad, f"{len(bad)} wrong tokens; first: {bad[0]}"


def test_mul_largest_columns(model):
    """All-ones operands give the largest column sums (8·225 in the middle column)."""
    I, R = Instr, Reg
    prog = program(load_two() + [[I(Op.MUL, R(7), (R(5), R(6))), I(Op.MUL, R(8), (R(5), R(5))),
                                  I(Op.MUL, R(9), (R(6), R(6)))]], [("a", True)])
    vals = [-1, -1, 0x7FFFFFFF, 0xFFFF, -1, 0x10001, -0x80000000, 0xFFFFFF]
    bad = check_program(model, prog, {"a": ",".join(str(v if v < 2**31 else v - 2**32) for v in vals)})
    assert not bad, f"{len(bad)} wrong tokens; first: {bad[0]}"


@pytest.mark.parametrize("seed", [4, 5])
def test_mulhi_programs(model, seed):
    """mulhi.u and mulhi.s on edge cases (signs, all ones, the most negative value) and random words."""
    rng = random.Random(seed)
    I, R = Instr, Reg
    blocks = load_two()
    for k in range(4):
        d = R(7 + k)
        other = rng.choice([R(6), Imm(rng.choice(EDGES))])
        blocks.append([I(Op.MULHI_S, d, (R(5), other)), I(Op.MULHI_U, R(12), (R(6), R(5))),
                       I(Op.MULHI_S, R(13), (d, R(6)))])
        blocks.append([I(Op.MUL, R(14), (R(5), R(6))), I(Op.XOR, R(6), (R(6), d)),
                       I(Op.MULHI_U, R(5), (R(5), Imm(rng.choice(EDGES))))])
    bad = check_program(model, program(blocks, [("a", True)]), {"a": _values(seed)})
    assert not bad, f"{len(bad)} wrong tokens; first: {bad[0]}"
