"""Passes that keep launch constants cheap (compiler/ifconvert.py, compiler/remat.py, compiler/cfg.py):
speculating constant copies out of if-converted arms, dropping a repeated ``mov`` of the same
immediate, sharing one recomputed copy between nearby uses, and leaving atomics' serial blocks
alone in ``simplify``. The programs are written by hand; what each pass must do to them is
worked out from their text."""

from compiler.cfg import VBlock, VProgram, simplify
from compiler.ifconvert import if_convert
from compiler.machine.isa import Branch, Exit, Guard, Imm, Instr, Jump, Op, Pred, Reg
from compiler.remat import REUSE_WITHIN, rematerialise

P = Pred("p")
N, PTR, SUM, X, Y, Z = (Reg(n) for n in ("n", "ptr", "sum", "x", "y", "z"))


def _hoisted(sum_live_after: bool) -> VProgram:
    """``if (tid < n) { ptr = param 0; sum = 0; loop: ... } after: st [..], sum`` in PTX's shape: the
    arm ``pre`` jumps into the loop, the branch's other side goes to ``after``."""
    after_reads = (Reg(0), Imm(0), SUM) if sum_live_after else (Reg(0), Imm(0), Imm(1))
    return VProgram([
        VBlock("entry", [Instr(Op.SREG, X, (), "tid.x"), Instr(Op.PARAM, N, (Imm(3),)),
                         Instr(Op.MOV, SUM, (Imm(0),)), Instr(Op.SETP, P, (X, N), "ge")],
               Branch(Guard(P), "after", "pre")),
        VBlock("pre", [Instr(Op.PARAM, Y, (Imm(0),)), Instr(Op.MOV, PTR, (Y,)),
                       Instr(Op.MOV, SUM, (Imm(0),)), Instr(Op.ADD, X, (X, Imm(1)))], Jump("loop")),
        VBlock("loop", [Instr(Op.LD, Z, (PTR, Imm(0)), "global"), Instr(Op.ADD, SUM, (SUM, Z)),
                        Instr(Op.SETP, P, (X, N), "lt")], Branch(Guard(P), "loop", "after")),
        VBlock("after", [Instr(Op.ST, None, after_reads, "global")], Exit()),
    ])


def test_constant_copies_of_a_hoisted_arm_run_unguarded():
    prog = if_convert(_hoisted(sum_live_after=True))
    entry = prog.blocks[0]
    assert [b.label for b in prog.blocks] == ["entry", "loop", "after"]
    moved = {i.dst: i.guard for i in entry.instrs[4:]}
    # y and ptr are dead where the skipping lanes go ("after"): computed in every lane
    assert moved[Y] is None and moved[PTR] is None
    # x + 1 is not a launch constant: guarded (running it everywhere would change x in more lanes)
    assert moved[X] == Guard(P, True)
    # sum = 0 again after an unguarded sum = 0: dropped (every lane already holds 0)
    assert SUM not in moved


def test_a_constant_read_where_skipping_lanes_go_stays_guarded():
    prog = _hoisted(sum_live_after=True)
    prog.blocks[3].instrs.append(Instr(Op.ST, None, (Reg(0), Imm(4), PTR), "global"))  # after reads ptr
    entry = if_convert(prog).blocks[0]
    guards = {i.dst: i.guard for i in entry.instrs[4:]}
    assert guards[PTR] == Guard(P, True) and guards[Y] is None


def test_repeated_immediate_is_dropped_only_when_every_lane_holds_it():
    p2 = Pred("q")
    prog = VProgram([VBlock("b", [
        Instr(Op.MOV, SUM, (Imm(0),)),
        Instr(Op.MOV, SUM, (Imm(0),), guard=Guard(P)),      # same value: dropped
        Instr(Op.MOV, X, (Imm(5),), guard=Guard(p2)),       # only some lanes hold 5 after it
        Instr(Op.MOV, X, (Imm(5),)),                        # kept
        Instr(Op.ADD, SUM, (SUM, Imm(1))),
        Instr(Op.MOV, SUM, (Imm(0),)),                      # sum changed since: kept
    ], Exit())])
    instrs = if_convert(prog).blocks[0].instrs
    assert len(instrs) == 5
    assert instrs[0].guard is None and instrs[1].dst == X and instrs[2] == Instr(Op.MOV, X, (Imm(5),))
    assert instrs[-1] == Instr(Op.MOV, SUM, (Imm(0),))


def _uses(gap: int) -> VProgram:
    """ptr = param 0 at entry, then two reads of ptr with ``gap`` other instructions between them."""
    filler = [Instr(Op.ADD, X, (X, Imm(k + 1))) for k in range(gap)]
    return VProgram([
        VBlock("entry", [Instr(Op.PARAM, PTR, (Imm(0),)), Instr(Op.SREG, X, (), "tid.x")], Jump("use")),
        VBlock("use", [Instr(Op.LD, Y, (PTR, Imm(0)), "global"), *filler,
                       Instr(Op.ST, None, (PTR, Imm(4), Y), "global")], Exit()),
    ])


def test_nearby_uses_share_one_recomputed_copy():
    prog = rematerialise(_uses(gap=REUSE_WITHIN - 2))
    # the entry block keeps tid only; both uses read one copy of param 0 made right before the load
    params = [i for b in prog.blocks for i in b.instrs if i.op is Op.PARAM]
    assert len(params) == 1
    ld, st = (i for b in prog.blocks for i in b.instrs if i.op in (Op.LD, Op.ST))
    assert ld.srcs[0] == st.srcs[0] == params[0].dst


def test_distant_uses_get_a_copy_each():
    prog = rematerialise(_uses(gap=REUSE_WITHIN + 1))
    params = [i for b in prog.blocks for i in b.instrs if i.op is Op.PARAM]
    assert len(params) == 2 and params[0].dst != params[1].dst


def test_simplify_keeps_serial_blocks_apart_and_their_jumps():
    # a -> s (serial) -> e (empty) -> a: merging a with s, or threading s's jump past e to a
    # (backwards), would break the serial block's rules (compiler/isel_atomic.py)
    prog = VProgram([
        VBlock("a", [Instr(Op.MOV, X, (Imm(1),))], Jump("s")),
        VBlock("s", [Instr(Op.LD, Y, (Reg(0), Imm(0)), "global"), Instr(Op.ST, None, (Reg(0), Imm(0), Y), "global")],
               Jump("e"), serial=True),
        VBlock("e", [], Jump("z")),
        VBlock("z", [Instr(Op.SETP, P, (X, Imm(3)), "lt")], Branch(Guard(P), "a", "x")),
        VBlock("x", [], Exit()),
    ])
    out = simplify(prog)
    labels = [b.label for b in out.blocks]
    assert labels[:3] == ["a", "s", "e"]
    assert out.blocks[1].serial and out.blocks[1].term == Jump("e")


def test_a_constant_that_would_close_a_full_block_opens_the_next():
    """Allocated code, split into 4-instruction blocks: param r4 is read only by the instruction
    after it, which does not fit the first block; the param goes with it, so r4 is a temporary
    of the second block (nothing sends it back)."""
    from compiler.block_temps import mark_temps
    from compiler.machine.config import DEFAULT
    from compiler.machine.isa import Program
    from compiler.vcfg_to_blocks import split_blocks

    assert DEFAULT.block.max_instrs == 4
    r = [Reg(k) for k in range(6)]
    body = [Instr(Op.ADD, r[k], (r[k], Imm(1))) for k in (1, 2, 3)]
    body += [Instr(Op.PARAM, r[4], (Imm(0),)), Instr(Op.ADD, r[5], (r[4], r[1])),
             Instr(Op.ST, None, (r[2], Imm(0), r[5]), "global"), Instr(Op.ST, None, (r[3], Imm(0), r[1]), "global")]
    blocks = split_blocks(VProgram([VBlock("b", body, Exit())]), DEFAULT, "t.ptx")
    assert [len(b.instrs) for b in blocks] == [3, 4]
    assert blocks[1].instrs[0].op is Op.PARAM
    temps = mark_temps(Program("t", blocks, [], 0, 6, 0)).blocks[1].temps
    assert r[4] in temps
