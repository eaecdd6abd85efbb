"""Spilling: keep a value in the thread's local memory when registers run out.

The last resort of the register allocator (after less if-conversion,
rematerialisation and rolled loops): each spilled virtual register gets a word
of local memory; every write to it is followed by a store there and every read
is preceded by a load into a short-lived temporary. It costs memory words (one
per spilled value and thread) and EXEC passes, so the compiler only spills when
a kernel would not fit otherwise.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import replace

from compiler.cfg import VProgram
from compiler.machine.isa import Guard, Imm, Instr, Op, Pred, Reg, ZERO


def spill_cost(prog: VProgram) -> Counter:
    """Reads + writes of each virtual register: spilling a rarely used one costs least."""
    cost: Counter = Counter()
    for b in prog.blocks:
        for i in b.instrs:
            for r in list(i.srcs) + [i.dst, i.dst2] + ([i.guard.pred] if i.guard else []):
                if isinstance(r, (Reg, Pred)) and isinstance(r.n, str):
                    cost[r] += 1
        g = getattr(b.term, "guard", None)
        if g is not None and isinstance(g.pred.n, str):
            cost[g.pred] += 1
    return cost


def spill(prog: VProgram, var: Reg, byte_offset: int, tag: str) -> None:
    """Rewrite ``prog`` so that ``var`` lives in local memory at ``byte_offset``."""
    n = 0
    slot = (ZERO, Imm(byte_offset))
    for b in prog.blocks:
        out: list[Instr] = []
        for ins in b.instrs:
            reads = var in ins.srcs
            writes = ins.dst == var
            if not (reads or writes):
                out.append(ins)
                continue
            n += 1
            tmp = Reg(f"{tag}.{n}")
            if reads:
                out.append(Instr(Op.LD, tmp, slot, "local", None, None, ins.line))
            srcs = tuple(tmp if s == var else s for s in ins.srcs)
            out.append(Instr(ins.op, tmp if writes else ins.dst, srcs, ins.mod, ins.guard, ins.dst2, ins.line))
            if writes:
                # guarded like the write, so lanes it skips keep the old value in memory
                out.append(Instr(Op.ST, None, (*slot, tmp), "local", ins.guard, None, ins.line))
        b.instrs = out


def spill_predicate(prog: VProgram, pred: Pred, tag: str) -> None:
    """Keep predicate ``pred`` in a general register (1 or 0) when the 4 predicates run out.

    Each write becomes a write to a short-lived predicate plus ``selp h, 1, 0``;
    each read (a source, a guard, a branch condition) is preceded by
    ``setp.ne t, h, 0``. The holder ``h`` may itself be spilled to memory later.
    """
    holder = Reg(f"{tag}.h")
    n = 0

    def fresh() -> Pred:
        nonlocal n
        n += 1
        return Pred(f"{tag}.{n}")

    def reload(out: list[Instr], line) -> Pred:
        t = fresh()
        out.append(Instr(Op.SETP, t, (holder, Imm(0)), "ne", None, None, line))
        return t

    for b in prog.blocks:
        out: list[Instr] = []
        for ins in b.instrs:
            uses = pred in ins.srcs or (ins.guard is not None and ins.guard.pred == pred)
            writes = pred in (ins.dst, ins.dst2)
            if not (uses or writes):
                out.append(ins)
                continue
            t = reload(out, ins.line) if uses else None
            srcs = tuple(t if s == pred else s for s in ins.srcs)
            guard = Guard(t, ins.guard.negate) if ins.guard is not None and ins.guard.pred == pred else ins.guard
            w = fresh() if writes else None
            dst = w if ins.dst == pred else ins.dst
            dst2 = w if ins.dst2 == pred else ins.dst2
            out.append(Instr(ins.op, dst, srcs, ins.mod, guard, dst2, ins.line))
            if writes:
                out.append(Instr(Op.SELP, holder, (Imm(1), Imm(0), w), "", guard, None, ins.line))
        g = getattr(b.term, "guard", None)
        if g is not None and g.pred == pred:
            t = reload(out, None)
            b.term = replace(b.term, guard=Guard(t, g.negate))
        b.instrs = out
