"""A register rewritten with the value it held sends no record (docs/circuit.md, "Unchanged
registers send no record"), on the tests' 3-instruction machine.

The program below walks the cases of the circuit's rule (``guards.GuardBuilder.unchanged``): a
first write of 0 (registers start at 0), a rewrite of the held value by a slot that is not the
block's last, a value changed by an earlier slot and put back by the last one, a guarded last
slot that skips some lanes (the earlier slot's value decides there, or nothing was written), and
a per-lane mix. The expected generated tokens are written out by hand from that rule; the model
must predict every one of them.
"""

import pytest

from circuit_programs import check_program, program
from compiler.circuit.protocol import trace_tokens
from compiler.machine.isa import ZERO, Guard, Imm, Instr, Op, Pred, Reg
from engine.interpreter import Interpreter
from engine.launch import build_launch

from circuit_programs import CFG3

NOP = Instr(Op.MOV, ZERO, (ZERO,))
I, R, P = Instr, Reg, Pred


def _prog():
    blocks = [
        # r2 = tid (lane 0: 0, the value it held), r3 = 0 (held), r4 = 7
        [I(Op.SREG, R(2), (), "tid.x"), I(Op.MOV, R(3), (Imm(0),)), I(Op.MOV, R(4), (Imm(7),))],
        # p0 = tid < 2; r4 = 7 again (held: no record); a guarded last slot writes r5 in lanes 0, 1
        [I(Op.SETP, P(0), (R(2), Imm(2)), "lt"), I(Op.MOV, R(4), (Imm(7),)),
         I(Op.MOV, R(5), (Imm(9),), guard=Guard(P(0)))],
        # lanes 0, 1: r5 = 3, then back to 9 by the last slot (held: no record); lanes 2, 3 skip the
        # last slot, so slot 0's 3 is the new value
        [I(Op.MOV, R(5), (Imm(3),)), I(Op.MOV, R(6), (Imm(1),)), I(Op.MOV, R(5), (Imm(9),), guard=Guard(P(0)))],
        # r6 = 5, then back to 1 by a slot that is not the block's last; r7 = tid
        [I(Op.MOV, R(6), (Imm(5),)), I(Op.MOV, R(6), (Imm(1),)), I(Op.ADD, R(7), (R(2), Imm(0)))],
        # lanes 0, 1 skip the last slot (r4 = 7 by slot 0: held); lanes 2, 3 run it (r4 = 8)
        [I(Op.MOV, R(4), (Imm(7),)), NOP, I(Op.MOV, R(4), (Imm(8),), guard=Guard(P(0), True))],
        # r1 = &a = 0 (held), r10 = 4 * tid
        [I(Op.PARAM, R(1), (Imm(0),)), I(Op.SHL, R(10), (R(2), Imm(2))), NOP],
        # r10 = r1 + r10 (held), a[tid] = r5, a[tid + 4] = r4
        [I(Op.ADD, R(10), (R(1), R(10))), I(Op.ST, None, (R(10), Imm(0), R(5)), "global"),
         I(Op.ST, None, (R(10), Imm(16), R(4)), "global")],
    ]
    return program(blocks, [("a", True)])


ARGS = {"a": "zeros:8"}
EXPECTED = [  # register records lane-parallel: R.r, then each writing lane's value (S.l.x)
    "EXEC.0.0.15", "R.2", "S.1.1", "S.2.2", "S.3.3", "R.4", "S.0.7", "S.1.7", "S.2.7", "S.3.7",
    "EXEC.1.0.15", "R.5", "S.0.9", "S.1.9", "P.0.0.1", "P.1.0.1", "P.2.0.0", "P.3.0.0",
    "EXEC.2.0.15", "R.5", "S.2.3", "S.3.3", "R.6", "S.0.1", "S.1.1", "S.2.1", "S.3.1",
    "EXEC.3.0.15", "R.7", "S.1.1", "S.2.2", "S.3.3",
    "EXEC.4.0.15", "R.4", "S.2.8", "S.3.8",
    "EXEC.5.0.15", "R.10", "S.1.4", "S.2.8", "S.3.12",
    "EXEC.6.0.15", "M.0.0.0", "S.9", "M.1.1.0", "S.9", "M.2.2.0", "S.3", "M.3.3.0", "S.3",
    "M.4.0.1", "S.7", "M.5.1.1", "S.7", "M.6.2.1", "S.8", "M.7.3.1", "S.8",
    "END",
]


def test_the_trace_leaves_out_exactly_the_unchanged_registers():
    prog = _prog()
    res = Interpreter(prog, build_launch(prog, 1, 4, ARGS, CFG3), CFG3).run()
    assert trace_tokens(res.trace) == EXPECTED


@pytest.mark.model
def test_the_model_leaves_them_out_too(cfg3_model):
    bad = check_program(cfg3_model[1], _prog(), ARGS)
    assert not bad, f"{len(bad)} wrong tokens; first: {bad[0]}"
