"""ALU ops in the stock model: random straight-line programs on edge-case values.

Each program loads two values per lane, applies ops with register and immediate operands
(immediates exercise the forwarding mux too) and the whole trace must be predicted token
by token; expected tokens come from the reference interpreter.
"""

import random

import pytest

from circuit_programs import check_program, load_two, program
from compiler.machine.isa import Imm, Instr, Op, Reg

EDGES = [0, 1, -1, 2, 7, 15, 16, 31, 32, 255, 256, -256, 0x7FFFFFFF, -0x80000000, 0x12345678, -0x5A5A5A5B,
         0x0F0F0F0F, 0x33333333]

pytestmark = pytest.mark.full
"""QGPU_FULL=1 only (tests/circuit_programs.py): CI replays the straight-line samples, which use every
op tested here (README.md, "What CI runs on the model")."""


@pytest.fixture(scope="module")
def model(cfg3_model):
    return cfg3_model[1]


def _prog(ops, seed):
    rng = random.Random(seed)
    I, R = Instr, Reg
    blocks = load_two()
    unary = (Op.NOT, Op.MOV, Op.POPC, Op.CLZ, Op.BREV)
    for k in range(8):
        op, op2 = rng.choice(ops), rng.choice(ops)
        other = rng.choice([R(6), Imm(rng.choice(EDGES))])
        d = R(7 + k % 7)
        blocks.append([I(op, d, (R(5),) if op in unary else (R(5), other)),
                       I(op2, R(14), (d,) if op2 in unary else (d, R(6))),   # forwarded operand
                       I(Op.ADD, R(5), (R(5), Imm(rng.choice(EDGES))))])
    return program(blocks, [("a", True)])


def _values(seed):
    rng = random.Random(seed)
    return ",".join(str(rng.choice(EDGES) if rng.random() < 0.6 else rng.randrange(-2**31, 2**31)) for _ in range(8))


OP_CLASSES = [
    ("shifts", [Op.SHL, Op.SHR_U, Op.SHR_S]),
    ("logic", [Op.AND, Op.OR, Op.XOR, Op.NOT]),
    ("arith", [Op.ADD, Op.SUB, Op.MOV]),
    ("bitcount", [Op.POPC, Op.CLZ, Op.BREV, Op.XOR]),
    ("minmax", [Op.MIN_S, Op.MIN_U, Op.MAX_S, Op.MAX_U, Op.SUB]),
]


@pytest.mark.parametrize("name,ops", OP_CLASSES)
@pytest.mark.parametrize("seed", [1])
def test_random_programs(model, name, ops, seed):
    prog = _prog(ops, seed)
    bad = check_program(model, prog, {"a": _values(seed)})
    assert not bad, f"{len(bad)} wrong tokens; first: {bad[0]}"


def _cmp_prog(seed):
    """setp of every mode on edge values, selp by a forwarded and by a stored predicate."""
    from compiler.machine.isa import Pred

    rng = random.Random(seed)
    I, R, P = Instr, Reg, Pred
    blocks = load_two()
    modes = ["eq", "ne", "lt", "le", "gt", "ge", "lo", "ls", "hi", "hs"]
    rng.shuffle(modes)
    for k, mode in enumerate(modes):
        p = P(k % 4)
        other = rng.choice([R(6), Imm(rng.choice(EDGES)), R(5)])
        blocks.append([I(Op.SETP, p, (R(5), other), mode),
                       I(Op.SELP, R(7 + k % 6), (R(5), Imm(rng.choice(EDGES)), p)),   # forwarded predicate
                       I(Op.SELP, R(13), (R(6), R(5), P((k + 1) % 4)))])              # from the predicate file
        if k % 3 == 2:
            blocks.append([I(Op.ADD, R(5), (R(5), Imm(rng.choice(EDGES)))), I(Op.XOR, R(6), (R(6), R(5))),
                           I(Op.SUB, R(14), (R(5), R(6)))])
    return program(blocks, [("a", True)])


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_setp_and_selp(model, seed):
    bad = check_program(model, _cmp_prog(seed), {"a": _values(seed + 10)})
    assert not bad, f"{len(bad)} wrong tokens; first: {bad[0]}"
