"""The execute pipeline (compiler/circuit/execute.py) in the stock transformers model.

A hand-written straight-line program (blocks of at most 3 instructions, on a machine
configured for 3 slots) runs in the reference interpreter; its prompt and its expected
trace are fed to the model in one pass (teacher forcing: the R/M records the model will
have to generate itself are given, so its register file follows the interpreter's). At
every EXEC position, the result of each slot that writes a register must equal the
interpreter's final value of that register, for every lane that ran.
"""


import pytest
import torch

from compiler.circuit.protocol import Vocab, prompt_tokens, trace_tokens
from compiler.machine.config import parse_machine
from compiler.machine.isa import Block, Exit, Imm, Instr, Jump, Op, ParamInfo, Program, Reg
from engine.interpreter import Interpreter
from engine.launch import build_launch


CFG3 = parse_machine("3:32")


def R(n):
    return Reg(n)


def _program() -> Program:
    I = Instr
    blocks = [
        [I(Op.SREG, R(1), (), "tid.x"), I(Op.PARAM, R(2), (Imm(0),)), I(Op.PARAM, R(3), (Imm(1),))],
        [I(Op.ADD, R(4), (R(1), R(1))), I(Op.ADD, R(4), (R(4), R(4))), I(Op.ADD, R(5), (R(2), R(4)))],
        [I(Op.LD, R(6), (R(5), Imm(0)), "global"), I(Op.ADD, R(7), (R(3), R(4))),
         I(Op.LD, R(8), (R(7), Imm(0)), "global")],
        [I(Op.SUB, R(9), (R(6), R(8))), I(Op.PARAM, R(10), (Imm(2),)), I(Op.ADD, R(11), (R(9), R(10)))],
        [I(Op.MOV, R(12), (Imm(0x12345678),)), I(Op.SUB, R(13), (R(11), R(12))), I(Op.ADD, R(14), (R(13), Imm(-77)))],
        [I(Op.SREG, R(1), (), "ntid.x"), I(Op.MOV, R(2), (R(14),)), I(Op.LD, R(3), (R(5), Imm(4)), "global")],
        [I(Op.SREG, R(4), (), "laneid"), I(Op.SUB, R(5), (R(4), Imm(3))), I(Op.ADD, R(15), (R(5), R(1)))],
        # a step whose last record is a low register, then a step that writes no register: at its
        # EXEC the latch still holds that record, and no later register may look pending
        [I(Op.ADD, R(3), (R(3), Imm(1)))],
        [I(Op.ST, None, (R(7), Imm(0), R(15)), "global")],
        [I(Op.PARAM, R(2), (Imm(0),)), I(Op.ST, None, (R(7), Imm(0), R(15)), "global"),
         I(Op.ADD, R(6), (R(2), Imm(16)))],
        [I(Op.ST, None, (R(6), Imm(-4), R(13)), "global"), I(Op.MOV, R(9), (Imm(-2),)),
         I(Op.ST, None, (R(2), Imm(4), R(9)), "global")],
        # two stores, then an instruction after both (the store bookkeeping must not count it)
        [I(Op.ST, None, (R(2), Imm(8), R(9)), "global"), I(Op.ST, None, (R(2), Imm(12), R(1)), "global"),
         I(Op.ADD, R(9), (R(9), Imm(1)))],
    ]
    blks = [Block(i, ins, Jump(i + 1) if i + 1 < len(blocks) else Exit()) for i, ins in enumerate(blocks)]
    params = [ParamInfo("a", "int*", True, False), ParamInfo("b", "int*", True, False),
              ParamInfo("k", "int", False, False)]
    return Program("hand", blks, params, 0, 15, 0)


@pytest.fixture(scope="module")
def model(cfg3_model):
    return cfg3_model


@pytest.mark.full  # QGPU_FULL=1 only (tests/circuit_programs.py): CI replays samples that use these ops (README.md)
@pytest.mark.parametrize("block,a", [(4, "5,-3,1000,2147483647"), (3, "0,1,-1,-2147483648")])
def test_slots_compute_the_interpreters_values(model, block, a):
    spec, m = model
    prog = _program()
    launch = build_launch(prog, 1, block, {"a": a, "b": "2,7,-8,-1", "k": "100"}, CFG3)
    res = Interpreter(prog, launch, CFG3).run()
    toks = prompt_tokens(prog, launch, CFG3) + trace_tokens(res.trace)
    ids = torch.tensor([Vocab(CFG3).encode(toks)])
    with torch.no_grad():
        hs = m(input_ids=ids, output_hidden_states=True).hidden_states[len(spec.layers)][0].double()
    execs = [i for i, t in enumerate(toks) if t.startswith("EXEC.")]
    assert len(execs) == len(res.trace)
    worst, checked = 0.0, 0
    for pos, ev in zip(execs, res.trace):
        blk = prog.blocks[ev.block]
        last = {ins.dst.n: s for s, ins in enumerate(blk.instrs) if isinstance(ins.dst, Reg)}
        assert set(last) == set().union(*(set(w) for w in ev.reg_writes.values())) or not ev.reg_writes
        for r, s in last.items():
            g = spec.space[f"r.{s}"]
            for lane in range(4):
                if not ev.mask >> lane & 1:
                    continue
                nib = [float(hs[pos, g[(lane, i)]]) for i in range(8)]
                worst = max(worst, max(abs(x - round(x)) for x in nib))
                got = sum(int(round(x)) << (4 * i) for i, x in enumerate(nib)) & 0xFFFFFFFF
                want = ev.reg_writes[lane][r] & 0xFFFFFFFF
                assert got == want, (f"step {ev.step} block {ev.block} slot {s} ({blk.instrs[s]}) lane {lane}: "
                                     f"model {got:#x}, interpreter {want:#x}")
                checked += 1
    assert checked > 20
    assert worst < 0.1


@pytest.mark.full  # QGPU_FULL=1 only (tests/circuit_programs.py): CI replays samples that use these ops (README.md)
@pytest.mark.parametrize("grid,block", [(1, 3), (1, 7), (2, 4), (4, 4)])  # partial warps, 2 warps, CTAs
def test_teacher_forced_trace_is_predicted_token_by_token(model, grid, block):
    """The whole expected trace in one pass: at every position after GO the model's argmax
    must be the next expected token (the prefill path of the real model)."""
    spec, m = model
    prog = _program()
    n = grid * block + 1  # one element more than threads: the program reads a[tid + 1]
    a = ",".join(str(v) for v in [5, -3, 1000, 2147483647, 0, -1, 77, -2147483648, 12, 13, 14, 15, 16, 17, 18, 19, 20][:n])
    b = ",".join(str(v) for v in [2, 7, -8, -1, 9, 9, -9, 100, 3, 3, 3, 3, 3, 3, 3, 3, 3][:n])
    launch = build_launch(prog, grid, block, {"a": a, "b": b, "k": "100"}, CFG3)
    res = Interpreter(prog, launch, CFG3).run()
    prompt = prompt_tokens(prog, launch, CFG3)
    toks = prompt + trace_tokens(res.trace)
    ids = torch.tensor([Vocab(CFG3).encode(toks)])
    with torch.no_grad():
        logits = m(input_ids=ids).logits[0]
    pred = Vocab(CFG3).decode(logits.argmax(-1).tolist())
    start = len(prompt) - 1  # the GO position predicts the first EXEC
    bad = [(i, toks[i], pred[i], toks[i + 1]) for i in range(start, len(toks) - 1) if pred[i] != toks[i + 1]]
    assert not bad, f"{len(bad)} wrong predictions, first: after {bad[0][1]!r} (token {bad[0][0]}) " \
                    f"the model says {bad[0][2]!r}, expected {bad[0][3]!r}"
