"""Shared and local memory in the stock model: the window base added to the address.

A hand-written program on the 3-instruction machine, 2 CTAs of 8 threads (4 warps), stores
into and loads from each CTA's shared window and each thread's local window; a 3-word global
array puts every window at a word that is not a multiple of 4, so the base's nibble 0 carries
into the word's upper digits for some lanes (``execute.SlotBuilder.memory``). The interpreter
gives the expected trace (the M records name the flat words); the model must predict every
token of it (teacher forcing).
"""

import pytest

from circuit_programs import check_program
from compiler.machine.isa import Block, Exit, Imm, Instr, Jump, Op, ParamInfo, Program, Reg
from engine.interpreter import Interpreter
from engine.launch import build_launch

pytestmark = pytest.mark.slow


def _program(pad: int) -> tuple[Program, dict]:
    I, R = Instr, Reg
    blocks = [
        [I(Op.SREG, R(1), (), "tid.x"), I(Op.SREG, R(2), (), "ctaid.x"), I(Op.SHL, R(2), (R(2), Imm(3)))],
        [I(Op.ADD, R(3), (R(1), R(2))), I(Op.SHL, R(4), (R(3), Imm(2))), I(Op.PARAM, R(5), (Imm(0),))],
        [I(Op.ADD, R(6), (R(5), R(4))), I(Op.LD, R(7), (R(6), Imm(0)), "global"), I(Op.SHL, R(8), (R(1), Imm(2)))],
        [I(Op.ST, None, (R(8), Imm(0), R(7)), "shared"), I(Op.ST, None, (R(0), Imm(4), R(3)), "local"),
         I(Op.XOR, R(9), (R(1), Imm(1)))],
        [I(Op.SHL, R(9), (R(9), Imm(2))), I(Op.LD, R(10), (R(9), Imm(0)), "shared"),
         I(Op.LD, R(11), (R(0), Imm(4)), "local")],
        [I(Op.LD, R(12), (R(0), Imm(28)), "shared"), I(Op.ADD, R(10), (R(10), R(11))), I(Op.PARAM, R(5), (Imm(1),))],
        [I(Op.ADD, R(6), (R(5), R(4))), I(Op.ADD, R(13), (R(10), R(12))),
         I(Op.ST, None, (R(6), Imm(0), R(13)), "global")],
    ]
    blks = [Block(i, ins, Jump(i + 1) if i + 1 < len(blocks) else Exit()) for i, ins in enumerate(blocks)]
    params = [ParamInfo(n, "int*", True, False) for n in ("a", "b", "pad")]
    prog = Program("windows", blks, params, shared_words=8, regs_used=13, preds_used=0, local_words=2)
    args = {"a": ",".join(str(7 * k - 40) for k in range(16)), "b": "zeros:16", "pad": f"zeros:{pad}"}
    return prog, args


def test_windows_are_not_word_aligned_to_four():
    """The layout the test relies on: every window base is 3 mod 4 (the carry case)."""
    from circuit_programs import CFG3

    prog, args = _program(3)
    launch = build_launch(prog, 2, 8, args, CFG3)
    assert [b % 4 for b in launch.layout.shared_base] == [3, 3]
    assert launch.layout.local_base % 4 == 3
    out = Interpreter(prog, launch, CFG3).run().arrays["b"]
    a = [7 * k - 40 for k in range(16)]
    # b[i] = a[partner in the warp pair] + i + a[last thread of the CTA]  (plain Python)
    want = [(a[(i & ~7) | ((i & 7) ^ 1)] + i + a[(i & ~7) | 7]) & 0xFFFFFFFF for i in range(16)]
    assert out == want


@pytest.mark.full  # QGPU_FULL=1 only (tests/circuit_programs.py): CI replays samples that use these ops (README.md)
@pytest.mark.parametrize("pad", [3, 4])
def test_shared_and_local_windows(cfg3_model, pad):
    _, model = cfg3_model
    prog, args = _program(pad)
    assert check_program(model, prog, args, block=8, grid=2) == []
