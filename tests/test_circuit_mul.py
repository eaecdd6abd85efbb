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

pytestmark = pytest.mark.full
"""QGPU_FULL=1 only (tests/circuit_programs.py): CI replays the straight-line samples, which use every
op tested here (README.md, "What CI runs on the model")."""


@pytest.fixture(scope="module")
def model(cfg3_model):
    return cfg3_model[1]


def _prog(seed, steps):
    """Four rounds of ``steps(d, other, imm)`` (two blocks each) after loading r5 and r6; ``d`` is
    the round's destination, ``other`` r6 or an edge-case immediate, ``imm`` another one."""
    rng = random.Random(seed)
    blocks = load_two()
    for k in range(4):
        other = rng.choice([Reg(6), Imm(rng.choice(EDGES))])
        blocks += steps(Reg(7 + k), other, Imm(rng.choice(EDGES)))
    return program(blocks, [("a", True)])


def _mul_steps(d, other, imm):
    """Slot 0 multiplies, slot 2 uses the forwarded product; then a multiply in the last slot."""
    I, R = Instr, Reg
    return [[I(Op.MUL, d, (R(5), other)), NOP, I(Op.MUL, R(12), (d, R(6)))],
            [I(Op.ADD, R(5), (R(5), imm)), I(Op.XOR, R(6), (R(6), d)), I(Op.MUL, R(13), (R(6), R(6)))]]


def _mulhi_steps(d, other, imm):
    I, R = Instr, Reg
    return [[I(Op.MULHI_S, d, (R(5), other)), I(Op.MULHI_U, R(12), (R(6), R(5))), I(Op.MULHI_S, R(13), (d, R(6)))],
            [I(Op.MUL, R(14), (R(5), R(6))), I(Op.XOR, R(6), (R(6), d)), I(Op.MULHI_U, R(5), (R(5), imm))]]


def _values(seed):
    rng = random.Random(seed)
    return ",".join(str(rng.choice(EDGES) if rng.random() < 0.5 else rng.randrange(-2**31, 2**31)) for _ in range(8))


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_mul_programs(model, seed):
    bad = check_program(model, _prog(seed, _mul_steps), {"a": _values(seed)})
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
    bad = check_program(model, _prog(seed, _mulhi_steps), {"a": _values(seed)})
    assert not bad, f"{len(bad)} wrong tokens; first: {bad[0]}"


def _chain_steps(d, other, imm):
    """Adder and shifter results (forwarded, and read back from registers) as multiplier operands:
    the multiplier scales any error in its operands by up to 120, so they must be exact."""
    I, R = Instr, Reg
    return [[I(Op.SUB, d, (imm, R(5))), I(Op.SHR_U, R(12), (d, Imm(2))), I(Op.SHL, R(13), (d, Imm(3)))],
            [I(Op.MUL, R(14), (R(12), R(13))), I(Op.SHR_S, R(6), (R(6), other)), I(Op.MUL, R(15), (R(12), R(6)))]]


@pytest.mark.parametrize("seed", [6, 7])
def test_mul_of_shifted_differences(model, seed):
    """The pattern of the expanded division (``sub``, ``shr.u``, then ``mul``) that once failed: the
    norm read the anchor as 1 + 2e-6, the adder and shifter passed the error on, and the product
    of 0xF-rich operands landed between two digits."""
    bad = check_program(model, _prog(seed, _chain_steps), {"a": _values(seed)})
    assert not bad, f"{len(bad)} wrong tokens; first: {bad[0]}"
