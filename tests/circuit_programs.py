"""Teacher-forced checks of whole programs on a small machine (3 instructions per block).

``check_program`` runs a hand-written Program in the interpreter, feeds prompt + expected
trace to the model in one pass, and returns the positions where the model's next-token
prediction differs (empty: every token right).
"""

from __future__ import annotations

import os

import pytest
import torch

from compiler.circuit.protocol import Vocab, prompt_tokens, trace_tokens
from compiler.machine.config import parse_machine
from compiler.machine.isa import Block, Exit, Imm, Instr, Jump, Op, ParamInfo, Program, Reg
from engine.interpreter import Interpreter
from engine.launch import build_launch

CFG3 = parse_machine("3:32")

FULL = os.environ.get("QGPU_FULL", "") == "1"
"""``QGPU_FULL=1``: run every model launch the tests define. Without it, tests marked ``full`` are
deselected (tests/conftest.py), leaving the launches CI runs (README.md, "What CI runs on the
model"): a forward pass over a launch costs about 50 ms per token on CI's 2-core CPU, and CI must
stay well under 30 minutes."""


def ci_cases(every: list, ci: list) -> list:
    """The parameters ``every``, those not in ``ci`` marked ``full`` (run with QGPU_FULL=1 only)."""
    assert all(c in every for c in ci), "a CI case is not one of the test's cases"
    return [c if c in ci else pytest.param(*(c if isinstance(c, tuple) else (c,)), marks=pytest.mark.full)
            for c in every]


def load_two() -> list[list[Instr]]:
    """Two blocks that load a[tid] into r5 and a[tid + 4] into r6 (r4 = &a[tid])."""
    I, R = Instr, Reg
    return [[I(Op.PARAM, R(1), (Imm(0),)), I(Op.SREG, R(2), (), "tid.x"), I(Op.SHL, R(3), (R(2), Imm(2)))],
            [I(Op.ADD, R(4), (R(1), R(3))), I(Op.LD, R(5), (R(4), Imm(0)), "global"),
             I(Op.LD, R(6), (R(4), Imm(16)), "global")]]


def program(blocks: list[list], params: list[tuple[str, bool]]) -> Program:
    blks = [Block(i, ins, Jump(i + 1) if i + 1 < len(blocks) else Exit()) for i, ins in enumerate(blocks)]
    return Program("p", blks, [ParamInfo(n, "int*" if ptr else "int", ptr, False) for n, ptr in params], 0, 15, 4)


def check_program(model, prog: Program, args: dict, block: int = 4, grid: int = 1) -> list:
    return check_launch(model, prog, build_launch(prog, grid, block, args, CFG3))


def compile_launch(path, cfg=CFG3):
    """(program, launch) of a CUDA file with a '// qgpu:' header, for the given machine."""
    from compiler.kernel_compiler import compile_file
    from engine.launch import parse_assignments, read_header

    hdr = read_header(path)
    prog = compile_file(path, hdr.kernel, cfg)
    return prog, build_launch(prog, hdr.grid, hdr.block, parse_assignments(hdr.args), cfg)


def check_launch(model, prog: Program, launch) -> list:
    """Teacher forcing of a whole launch (as check_program): the positions the model gets wrong."""
    res = Interpreter(prog, launch, CFG3).run()
    prompt = prompt_tokens(prog, launch, CFG3)
    toks = prompt + trace_tokens(res.trace)
    with torch.no_grad():
        logits = model(input_ids=torch.tensor([Vocab(CFG3).encode(toks)])).logits[0]
    pred = Vocab(CFG3).decode(logits.argmax(-1).tolist())
    return [(i, " ".join(toks[max(0, i - 4):i + 1]), pred[i], toks[i + 1])
            for i in range(len(prompt) - 1, len(toks) - 1) if pred[i] != toks[i + 1]]
