"""The token protocol (compiler/circuit/protocol.py): names, value encoding, ROM records, traces.

Expected token strings are written out by hand from the protocol's definition in
docs/circuit.md; trace round trips compare with the interpreter's own events.
"""

import glob

import pytest

from compiler.machine.config import DEFAULT

from compiler.circuit import protocol as P
from compiler.circuit.tokens import const_row, const_row_count
from compiler.kernel_compiler import compile_file
from compiler.machine.isa import Block, Exit, Imm, Instr, Jump, Op, Pred, Program, Reg
from engine.interpreter import ExecEvent, Interpreter
from engine.launch import build_launch, parse_assignments, read_header


@pytest.mark.parametrize("v,want", [
    (0, ["S.0"]), (5, ["S.5"]), (-1, ["S.-1"]), (0xFFFFFFFF, ["S.-1"]), (127, ["S.127"]), (-128, ["S.-128"]),
    (128, ["B0.128", "B1.0", "B2.0", "B3.0"]), (0x12345678, ["B0.120", "B1.86", "B2.52", "B3.18"]),
    (-129, ["B0.127", "B1.255", "B2.255", "B3.255"]), (0x80000000, ["B0.0", "B1.0", "B2.0", "B3.128"]),
])
def test_value_tokens(v, want):
    assert P.value_tokens(v) == want


def test_vocab_names_are_unique_words():
    v = P.Vocab()
    assert len(set(v.words)) == len(v.words)
    assert all(w and " " not in w for w in v.words)
    assert v.decode(v.encode(["GO", "EXEC.3.1.15", "END"])) == ["GO", "EXEC.3.1.15", "END"]


def test_rom_fields_of_a_hand_written_block():
    blk = Block(0, [Instr(Op.SREG, Reg(1), (), "tid.x"),
                    Instr(Op.ADD, Reg(2), (Reg(1), Imm(300))),
                    Instr(Op.SETP, Pred(0), (Reg(2), Reg(7)), "lt"),
                    Instr(Op.SELP, Reg(3), (Imm(-1), Imm(9), Pred(0)))], Exit())
    prog = Program("k", [blk], [], 0, 3, 1)
    rom = P.encode_rom(prog)
    op = P.OPCODE_ID
    assert rom[(0, 0)] == {"op": op["sreg.tid.x"], "dst": 1}
    # a = r1 forwarded from slot 0, b = immediate 300 = 0x12C
    assert rom[(0, 1)] == {"op": op["add"], "dst": 2, "a": 16, "b": 32, "imm0": 0x2C, "imm1": 1}
    assert rom[(0, 2)] == {"op": op["setp.lt"], "dst": 16, "a": 17, "b": 7}
    # two immediates: -1 in imm, 9 in jmm; predicate forwarded from slot 2
    assert rom[(0, 3)] == {"op": op["selp"], "dst": 3, "a": 32, "b": 33, "c": 48 + 2,
                           "imm0": 255, "imm1": 255, "imm2": 255, "imm3": 255, "jmm0": 9}
    assert rom[(0, 8)] == {"op": P.TERMINATORS.index("exit")}


def test_rom_limit_is_a_clear_error():
    blocks = [Block(i, [], Jump(i + 1)) for i in range(DEFAULT.rom_blocks + 1)]
    with pytest.raises(P.CircuitLimit, match=f"{DEFAULT.rom_blocks}-block ROM"):
        P.encode_rom(Program("k", blocks, [], 0, 0, 0))


def _launch(path):
    prog = compile_file(path)
    h = read_header(path)
    return prog, build_launch(prog, h.grid, h.block, parse_assignments(h.args))


@pytest.mark.parametrize("path", sorted(glob.glob("samples/*.cu")))
def test_trace_round_trip(path):
    prog, launch = _launch(path)
    res = Interpreter(prog, launch).run()
    toks = P.trace_tokens(res.trace)
    P.Vocab().encode(P.prompt_tokens(prog, launch) + toks)  # every token is a vocabulary word
    steps, ended = P.parse_trace(toks)
    assert ended and len(steps) == len(res.trace)
    model: dict = {}   # (warp, lane, register) -> value, from the records (registers start at 0)
    interp: dict = {}  # the same, from every register write of the interpreter
    for st, ev in zip(steps, res.trace):
        assert (st.block, st.warp) == (ev.block, ev.warp)
        for l, w in st.regs.items():
            for r, v in w.items():  # a record is sent only for a value the register did not hold
                assert model.get((st.warp, l, r), 0) != v, (st.warp, l, r, v)
                model[(st.warp, l, r)] = v
        for l, w in ev.reg_writes.items():
            for r, v in w.items():
                interp[(ev.warp, l, r)] = v & 0xFFFFFFFF
        assert {k: v for k, v in model.items() if v} == {k: v for k, v in interp.items() if v}
        assert st.mem == [(a, v & 0xFFFFFFFF) for a, v in ev.mem_writes]
        assert st.preds == {l: {p: int(v) for p, v in w.items()} for l, w in ev.pred_writes.items() if w}


def test_a_register_that_keeps_its_value_sends_no_record():
    # warp 0: lane 0 writes r1 = 0 (held 0: nothing), r2 = 7; then r2 = 7 again (nothing), r2 = -1;
    # warp 1 holds its own registers: its r2 = 7 is a change
    evs = [ExecEvent(0, 0, 0, 1, reg_writes={0: {1: 0, 2: 7}}),
           ExecEvent(1, 0, 0, 1, reg_writes={0: {2: 7}}),
           ExecEvent(2, 0, 0, 3, reg_writes={0: {2: 0xFFFFFFFF}, 1: {2: 0}}),
           ExecEvent(3, 0, 1, 1, reg_writes={0: {2: 7}})]
    assert P.trace_tokens(evs) == ["EXEC.0.0.1", "R.2", "S.0.7", "EXEC.0.0.1", "EXEC.0.0.3", "R.2", "S.0.-1",
                                   "EXEC.0.1.1", "R.2", "S.0.7", "END"]


def test_register_records_are_lane_parallel():
    # one address per register (ascending), then each writing lane's value in lane order; a lane
    # whose register keeps its value is left out, and a register no lane changes sends nothing
    evs = [ExecEvent(0, 0, 0, 15, reg_writes={3: {1: 5, 4: 0}, 0: {4: 0x12345678, 1: -3}, 2: {1: 0}, 1: {1: 200}},
                     pred_writes={1: {0: True}}, mem_writes=[(6, 9)], mem_write_src=[(0, 2)])]
    assert P.trace_tokens(evs) == ["EXEC.0.0.15", "R.1", "S.0.-3", "B0.1.200", "B1.0", "B2.0", "B3.0", "S.3.5",
                                   "R.4", "B0.0.120", "B1.86", "B2.52", "B3.18", "P.1.0.1", "M.6.2.0", "S.9", "END"]
    steps, ended = P.parse_trace(P.trace_tokens(evs))
    assert ended and steps == [P.Step(0, 0, 15, {0: {1: 0xFFFFFFFD, 4: 0x12345678}, 1: {1: 200}, 3: {1: 5}},
                                      {1: {0: 1}}, [(6, 9)], [])]


def test_dot_prompt_starts_with_the_program():
    prog, launch = _launch("samples/dot.cu")
    toks = P.prompt_tokens(prog, launch)
    assert toks[0] == "<bos>" and toks[-1] == "GO"
    first = prog.blocks[0].instrs[0]  # the ROM load comes first, block 0's slot 0 first
    assert toks[1] == "I.0.0" and toks[2] == f"F.op.{P.OPCODE_ID[P.opcode_name(first)]}"
    # the arrays a=1,2,3 at words 0..2, b=4,5,6 at words 3..5; out (zeros) sends nothing
    mem = [t for t in toks if t.startswith(("M.", "S."))]
    assert mem[:12] == ["M.0", "S.1", "M.1", "S.2", "M.2", "S.3", "M.3", "S.4", "M.4", "S.5", "M.5", "S.6"]


def test_bad_traces_are_reported_with_their_position():
    with pytest.raises(P.TraceError, match="token 0"):
        P.parse_trace(["R.1", "S.0.3"])
    with pytest.raises(P.TraceError, match="token 3: expected byte B1"):
        P.parse_trace(["EXEC.0.0.15", "R.1", "B0.0.1", "S.3"])
    with pytest.raises(P.TraceError, match="token 2: expected a lane value after R.1, got end"):
        P.parse_trace(["EXEC.0.0.15", "R.1"])
    with pytest.raises(P.TraceError, match="token 2: expected a lane value after R.1, got S.3"):
        P.parse_trace(["EXEC.0.0.15", "R.1", "S.3"])
    with pytest.raises(P.TraceError, match="token 2: expected a value, got S.1.3"):
        P.parse_trace(["EXEC.0.0.15", "M.6.0.0", "S.1.3"])
    steps, ended = P.parse_trace(["EXEC.0.0.15", "R.1", "S.0.-2"])  # not ended: no END token yet
    assert not ended and steps == [P.Step(0, 0, 15, {0: {1: 0xFFFFFFFE}}, {}, [])]


def _many_params_kernel(tmp_path, n: int):
    """A kernel with n int parameters; thread 0 stores the last one (so the compiler keeps it)."""
    names = [f"p{i}" for i in range(n - 1)]
    src = tmp_path / f"params{n}.cu"
    src.write_text(f"// qgpu: --grid 1 --block 1\n// qgpu: out=zeros:1 {' '.join(f'{x}={i + 100}' for i, x in enumerate(names))}\n"
                   f"__global__ void k(int* out, {', '.join(f'int {x}' for x in names)}) {{ out[0] = {names[-1]}; }}\n")
    return _launch(str(src))


def test_sixteen_parameters_reach_the_constants_file(tmp_path):
    prog, launch = _many_params_kernel(tmp_path, P.PARAMS)
    assert P.PARAMS == 16
    toks = P.prompt_tokens(prog, launch)
    names = P.constant_names()
    # the last parameter (index 15) is 114 (= 100 + 14): a K record of constant "param15", row 15
    i = names.index("param15")
    assert toks[toks.index(f"K.{i}") + 1] == "S.114" and const_row("param15") == 15
    # every constant's row is inside the constants file; the rows after the parameters moved up
    assert all(const_row(n) < const_row_count() for n in names)
    assert const_row("ntid") == 16 and const_row("tid.0.0") == 18


def test_seventeen_parameters_are_a_clear_circuit_limit(tmp_path):
    prog, launch = _many_params_kernel(tmp_path, P.PARAMS + 1)
    with pytest.raises(P.CircuitLimit, match="17 parameters; the circuit holds 16"):
        P.prompt_tokens(prog, launch)


def test_token_codec_reads_every_name_back():
    """protocol.Token: every vocabulary name parses and prints back; the fields of each kind, as the
    names are built in Vocab.words."""
    from compiler.circuit.protocol import FIELDS, Token, Vocab, is_exec
    from compiler.machine.config import parse_machine

    for w in Vocab(parse_machine("3:32")).words:
        t = Token.parse(w)
        assert str(t) == w and t.is_exec == is_exec(w)
    cases = {"EXEC.3.1.8": ("EXEC", (3, 1, 8), None), "R.4": ("R", (4,), None), "S.-7": ("S", (-7,), None),
             "S.2.-13": ("S", (-13,), 2), "B0.3.255": ("B0", (255,), 3), "B2.9": ("B2", (9,), None),
             "P.3.0.1": ("P", (0, 1), 3), "M.40": ("M", (40,), None), "M.40.2.1": ("M", (40, 1), 2),
             "I.5.2": ("I", (5, 2), None), "F.dst.7": ("F", (FIELDS.index("dst"), 7), None), "END": ("END", (), None)}
    for name, (kind, args, lane) in cases.items():
        t = Token.parse(name)
        assert (t.kind, t.args, t.lane) == (kind, args, lane), name
    assert Token.parse("EXEC.3.1.8").exec_fields == (3, 1, 8) and Token.parse("R.4").exec_fields is None
    assert Token.parse("M.40.2.1").stored_word == 40 and Token.parse("M.40").stored_word is None
    assert [Token.parse(n).is_write for n in ("S.2.-13", "B0.3.1", "P.3.0.1", "M.40.2.1", "R.4", "S.-7", "B1.3")] == \
        [True, True, True, True, False, False, False]
