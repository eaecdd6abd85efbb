"""The writeback-token estimate that chooses between compiling with and without
rematerialisation (compiler/trace_cost.py). Expected numbers are worked out by hand from the
programs below; the last test checks the choice against the interpreter's real trace."""

from compiler.block_temps import mark_temps
from compiler.machine.isa import Block, Branch, Exit, Guard, Imm, Instr, Jump, Op, Pred, Program, Reg
from compiler.trace_cost import LANES, LOOP_WEIGHT, estimated_tokens, loop_depths


def _nested() -> Program:
    # B0 -> B1 -> B2 -> (B2 | B3) -> (B1 | B4): B1..B3 in the outer loop, B2 also in the inner one
    mov = lambda r, v: Instr(Op.MOV, Reg(r), (Imm(v),))  # noqa: E731
    setp = Instr(Op.SETP, Pred(0), (Reg(1), Reg(2)), "lt")
    blocks = [
        Block(0, [mov(1, 0), mov(2, 3)], Jump(1)),
        Block(1, [mov(3, 0)], Jump(2)),
        Block(2, [Instr(Op.ADD, Reg(3), (Reg(3), Imm(1))), setp], Branch(Guard(Pred(0)), 2, 3)),
        Block(3, [Instr(Op.ADD, Reg(1), (Reg(1), Imm(1))), setp], Branch(Guard(Pred(0)), 1, 4)),
        Block(4, [Instr(Op.ST, None, (Reg(0), Imm(0), Reg(3)), "global")], Exit()),
    ]
    return mark_temps(Program("n", blocks, [], 0, 4, 1))


def test_loop_depths():
    assert loop_depths(_nested().blocks) == {0: 0, 1: 1, 2: 2, 3: 1, 4: 0}


def test_estimate_weights_kept_writes_by_loop_depth():
    p = _nested()
    # p0 is read by the branches only: a temporary everywhere; the rest is kept
    assert all(Pred(0) in b.temps for b in p.blocks[2:4])
    kept = {0: 2, 1: 1, 2: 1, 3: 1, 4: 0}  # registers: R.r once, then a short value per lane
    depth = {0: 0, 1: 1, 2: 2, 3: 1, 4: 0}
    want = sum(LOOP_WEIGHT ** depth[b] * (1 + kept[b] * (1 + LANES)) for b in range(5))
    assert want == 1 * 11 + 4 * 6 + 16 * 6 + 4 * 6 + 1  # with LOOP_WEIGHT = LANES = 4
    assert estimated_tokens(p) == want


def test_rematerialising_dot_saves_real_tokens(monkeypatch):
    """On dot the compiler keeps the rematerialised program; the interpreter's trace of it is
    shorter than the plain program's (numbers: python benchmarks/protocol_tokens.py)."""
    import compiler.kernel_compiler as kc
    from compiler.machine.config import DEFAULT as CFG
    from compiler.circuit.protocol import trace_tokens
    from engine.interpreter import Interpreter
    from engine.launch import build_launch, parse_assignments, read_header

    def tokens() -> int:
        h = read_header("samples/dot.cu")
        prog = kc.compile_file("samples/dot.cu", h.kernel, CFG)
        res = Interpreter(prog, build_launch(prog, h.grid, h.block, parse_assignments(h.args), CFG), CFG).run()
        return len(trace_tokens(res.trace))

    chosen = tokens()
    monkeypatch.setattr(kc, "estimated_tokens", lambda program: 0)  # a tie: the plain program
    plain = tokens()
    assert chosen < plain
