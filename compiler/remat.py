"""Rematerialisation: recompute launch constants at each use instead of keeping them live.

Kernel parameters (pointer bases, sizes), special registers (``tid.x``...) and
immediates are loaded once at kernel entry and often stay alive for the whole
kernel, each holding one of the lane's 15 registers. Re-reading them right
before each use frees those registers, and the copy made at kernel entry no
longer goes back as writeback tokens (the re-read value is a block temporary),
for the price of extra instructions. The compiler compiles each kernel both
ways and keeps the one with fewer estimated trace tokens
(compiler/trace_cost.py), or the one that fits.
"""

from __future__ import annotations

from collections import Counter

from compiler.cfg import VProgram, simplify
from compiler.machine.isa import Imm, Instr, Op, Reg


REUSE_WITHIN = 3
"""A use reads the copy made for an earlier use when at most this many instructions lie between
that copy and it (so that both uses likely land in the same ROM block, where the copy is a
temporary), otherwise it gets a copy of its own."""


def constant_defs(prog: VProgram) -> dict[Reg, Instr]:
    """Virtual registers written exactly once, unguarded, by a constant-producing op, or
    copied (``mov``) from such a register: each maps to the op that recomputes it."""
    counts: Counter = Counter(d for b in prog.blocks for i in b.instrs for d in i.regs_written())
    single = {i.dst: i for b in prog.blocks for i in b.instrs
              if isinstance(i.dst, Reg) and isinstance(i.dst.n, str) and counts[i.dst] == 1 and i.guard is None}
    defs: dict[Reg, Instr] = {}
    changed = True
    while changed:  # follow copy chains (param -> cvta -> mov ...) to their constant root
        changed = False
        for d, i in single.items():
            if d in defs:
                continue
            if i.op in (Op.PARAM, Op.SREG) or (i.op is Op.MOV and isinstance(i.srcs[0], Imm)):
                defs[d] = i
                changed = True
            elif i.op is Op.MOV and i.srcs[0] in defs:
                defs[d] = defs[i.srcs[0]]
                changed = True
    return defs


def rematerialise(prog: VProgram) -> VProgram:
    defs = constant_defs(prog)
    if not defs:
        return prog
    n = 0
    for b in prog.blocks:
        out: list[Instr] = []
        made: dict[tuple, tuple[Reg, int]] = {}  # (op, srcs, mod) -> a recent copy, where it is in out
        for ins in b.instrs:
            if ins.dst in defs:  # its only definition
                continue  # each block that uses it gets its own copy below
            srcs = list(ins.srcs)
            for k, s in enumerate(srcs):
                if isinstance(s, Reg) and s in defs:
                    d = defs[s]
                    key = (d.op, d.srcs, d.mod)
                    if key not in made or len(out) - made[key][1] > REUSE_WITHIN:
                        n += 1
                        made[key] = (Reg(f"rm{n}"), len(out))
                        out.append(Instr(d.op, made[key][0], d.srcs, d.mod, None, None, ins.line))
                    srcs[k] = made[key][0]
            out.append(Instr(ins.op, ins.dst, tuple(srcs), ins.mod, ins.guard, ins.dst2, ins.line))
        b.instrs = out
    return simplify(prog)  # a block left with nothing but a constant's only definition is empty now
