"""Guarded instructions in the stock model: lanes whose guard is false keep the old value and
send no record; guards from the predicate file and forwarded from a setp of the same block;
old values from the register file and forwarded; guarded mul and ld.

Expected tokens come from the reference interpreter's trace (its per-lane writes).
"""

import pytest

from circuit_programs import check_program, load_two, program
from compiler.machine.isa import ZERO, Guard, Imm, Instr, Op, Pred, Reg

NOP = Instr(Op.MOV, ZERO, (ZERO,))


@pytest.fixture(scope="module")
def model(cfg3_model):
    return cfg3_model[1]


def _prog():
    I, R, P = Instr, Reg, Pred

    def g(p, neg=False):
        return Guard(P(p), neg)

    blocks = load_two() + [
        # guard forwarded from slot 0's setp; the old value of r7 (never written) from the register file
        [I(Op.SETP, P(0), (R(5), R(6)), "lt"), I(Op.SETP, P(1), (R(5), Imm(0)), "gt"),
         I(Op.ADD, R(7), (R(5), R(6)), guard=g(0))],
        # guards from the predicate file; a guarded multiply; a guarded result read two slots on
        [I(Op.SUB, R(5), (R(5), Imm(1)), guard=g(1, True)), NOP, I(Op.MUL, R(8), (R(6), R(5)), guard=g(1))],
        # the old value forwarded from an earlier slot of the block
        [I(Op.MOV, R(9), (R(6),)), I(Op.XOR, R(9), (R(9), R(5)), guard=g(0)), I(Op.ADD, R(10), (R(7), Imm(1)))],
        [I(Op.SHL, R(9), (R(9), Imm(3)), guard=g(0, True)), NOP, I(Op.ADD, R(11), (R(9), R(8)))],
        # a guarded load; a block where a guard may hold in no lane
        [I(Op.LD, R(12), (R(4), Imm(16)), "global", guard=g(1)), I(Op.SETP, P(2), (R(5), R(5)), "ne"),
         I(Op.SELP, R(13), (R(5), R(6), P(1)), guard=g(0))],
        [I(Op.ADD, R(14), (R(14), Imm(5)), guard=g(2)), I(Op.MOV, R(15), (Imm(-7),), guard=g(2, True)),
         I(Op.ADD, R(2), (R(12), R(13)))],
    ]
    return program(blocks, [("a", True)])


@pytest.mark.parametrize("values,block", [("5,-3,0,7,2,2,-1,9", 4), ("-8,4,1,0,3,3,-9,100", 4),
                                          ("1,1,1,1,1,1,1,1", 4), ("5,-3,0,7,2,2,-1,9", 3)])
def test_guarded_programs(model, values, block):
    bad = check_program(model, _prog(), {"a": values}, block=block)
    assert not bad, f"{len(bad)} wrong tokens; first: {bad[0]}"


def test_predicate_logic(model):
    """and/or/xor/not/mov on predicates from the predicate file and forwarded from setp; the
    results used by selp and as guards."""
    I, R, P = Instr, Reg, Pred
    blocks = load_two() + [
        [I(Op.SETP, P(0), (R(5), R(6)), "lt"), I(Op.SETP, P(1), (R(5), Imm(0)), "ge"),
         I(Op.PXOR, P(2), (P(0), P(1)))],                                    # both forwarded
        [I(Op.PAND, P(3), (P(0), P(2))), I(Op.PNOT, P(0), (P(3),)), I(Op.POR, P(1), (P(1), P(2)))],
        [I(Op.PMOV, P(2), (P(0),)), I(Op.SELP, R(7), (R(5), R(6), P(2)), ""),
         I(Op.ADD, R(8), (R(6), Imm(3)), guard=Guard(P(1), True))],
        [I(Op.PXOR, P(3), (P(3), P(3))), I(Op.POR, P(0), (P(3), P(1))), I(Op.PNOT, P(1), (P(1),))],
    ]
    for values in ("5,-3,0,7,2,2,-1,9", "-8,4,1,0,3,3,-9,100"):
        bad = check_program(model, program(blocks, [("a", True)]), {"a": values})
        assert not bad, f"{len(bad)} wrong tokens; first: {bad[0]}"
