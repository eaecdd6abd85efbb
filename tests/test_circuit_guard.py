"""Guarded instructions in the stock model: lanes whose guard is false keep the old value and
send no record; guards from the predicate file and forwarded from a setp of the same block;
old values from the register file and forwarded; guarded mul and ld; guarded setp and predicate
ops (old value from the predicate file or forwarded); guarded stores (first and second store
of a block).

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


GUARD_CASES = [("5,-3,0,7,2,2,-1,9", 4), ("-8,4,1,0,3,3,-9,100", 4), ("1,1,1,1,1,1,1,1", 4), ("5,-3,0,7,2,2,-1,9", 3)]


@pytest.mark.full  # QGPU_FULL=1 only (tests/circuit_programs.py): CI replays samples that use these ops (README.md)
@pytest.mark.parametrize("values,block", GUARD_CASES)
def test_guarded_programs(model, values, block):
    bad = check_program(model, _prog(), {"a": values}, block=block)
    assert not bad, f"{len(bad)} wrong tokens; first: {bad[0]}"


@pytest.mark.full
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


def _pred_store_prog():
    I, R, P = Instr, Reg, Pred

    def g(p, neg=False):
        return Guard(P(p), neg)

    blocks = load_two() + [
        [I(Op.SETP, P(0), (R(5), R(6)), "lt"), I(Op.SETP, P(1), (R(5), Imm(0)), "gt"),
         I(Op.SETP, P(2), (R(6), Imm(2)), "ge")],
        # guarded setp: guard and old value from the predicate file; then a guard forwarded from
        # that guarded result; a guarded predicate op whose operands come from file and slot
        [I(Op.SETP, P(1), (R(5), R(6)), "ne", guard=g(0)), I(Op.SETP, P(2), (R(5), Imm(3)), "eq", guard=g(1, True)),
         I(Op.PAND, P(0), (P(0), P(1)), guard=g(2))],
        # the old value forwarded from an earlier slot of the block
        [I(Op.SETP, P(3), (R(6), Imm(3)), "lt"), I(Op.SETP, P(3), (R(5), R(6)), "gt", guard=g(1)),
         I(Op.PNOT, P(1), (P(2),), guard=g(3, True))],
        # guarded stores: the first (guard from the file) and the second (guard forwarded)
        [I(Op.ST, None, (R(4), Imm(0), R(6)), "global", guard=g(1)), I(Op.SETP, P(3), (R(5), Imm(1)), "ne"),
         I(Op.ST, None, (R(4), Imm(16), R(5)), "global", guard=g(3, True))],
        # an unguarded first store, a guarded second one
        [I(Op.ST, None, (R(4), Imm(0), R(5)), "global"), I(Op.ST, None, (R(4), Imm(16), R(6)), "global", guard=g(3)),
         I(Op.SELP, R(7), (R(5), R(6), P(0)))],
        # the merged predicates, read back
        [I(Op.SELP, R(8), (R(5), R(6), P(1))), I(Op.SELP, R(9), (R(6), R(5), P(2))),
         I(Op.ADD, R(10), (R(5), R(6)), guard=g(3))],
    ]
    return program(blocks, [("a", True)])


STORE_CASES = [("5,-3,0,7,2,2,-1,9", 4), ("-8,4,1,3,3,3,-9,100", 4), ("1,1,1,1,1,1,1,1", 4), ("5,-3,0,7,2,2,-1,9", 3)]


@pytest.mark.full  # QGPU_FULL=1 only (tests/circuit_programs.py): CI replays samples that use these ops (README.md)
@pytest.mark.parametrize("values,block", STORE_CASES)
def test_guarded_setp_and_stores(model, values, block):
    bad = check_program(model, _pred_store_prog(), {"a": values}, block=block)
    assert not bad, f"{len(bad)} wrong tokens; first: {bad[0]}"


def test_guarded_programs_are_not_flagged_unsupported():
    """``gpu.unsupported`` no longer reports guarded setp or stores (the model runs them)."""
    from compiler.circuit.gpu import unsupported
    from engine.launch import build_launch
    from circuit_programs import CFG3

    prog = _pred_store_prog()
    assert unsupported(prog, build_launch(prog, 1, 4, {"a": "1,2,3,4,5,6,7,8"}, CFG3)) == []
