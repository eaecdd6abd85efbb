"""If-conversion: short branch arms become guarded instructions in the block before them.

``if (c) x = ...;`` compiles to a branch around a few instructions. Running those
instructions under a guard ``@p`` instead saves ROM blocks (the ROM has 32) and
EXEC passes (no divergence), and gives each lane the same result: a guarded
instruction does nothing in lanes where its guard fails. Arms with shuffles or
votes stay branches, because which lanes *execute* those matters.

Patterns, on the virtual CFG before register allocation (A ends in
``branch @g -> X else Y``):

* triangle: X or Y is an arm B (one predecessor, ends ``jump J``) and the other is J;
* diamond: X and Y are arms that both jump to the same J;
* exit: X or Y is an empty block that just exits: A ends in a guarded ``exit``.
"""

from __future__ import annotations

from compiler.cfg import VBlock, VProgram, simplify
from compiler.machine.isa import Branch, Exit, Guard, Instr, Jump, Op

MAX_ARM = 6
"""Instructions an arm may have to be converted (both arms together for a diamond)."""


def _preds(prog: VProgram) -> dict[str, int]:
    count: dict[str, int] = {}
    for b in prog.blocks:
        for s in set(b.succs()):
            count[s] = count.get(s, 0) + 1
    return count


def _convertible(arm: VBlock, guard: Guard, preds: dict[str, int]) -> bool:
    return (preds.get(arm.label) == 1 and isinstance(arm.term, Jump)
            and all(i.guard is None and i.op not in (Op.SHFL, Op.VOTE) and guard.pred not in i.regs_written()
                    for i in arm.instrs))


def _guarded(instrs: list[Instr], g: Guard) -> list[Instr]:
    return [Instr(i.op, i.dst, i.srcs, i.mod, g, i.dst2, i.line) for i in instrs]


def _is_bare_exit(b: VBlock) -> bool:
    return not b.instrs and isinstance(b.term, Exit) and b.term.guard is None


def if_convert(prog: VProgram) -> VProgram:
    changed = True
    while changed:
        changed = False
        by = prog.by_label()
        preds = _preds(prog)
        for a in prog.blocks:
            if not isinstance(a.term, Branch):
                continue
            g = a.term.guard
            not_g = Guard(g.pred, not g.negate)
            x, y = by[str(a.term.target)], by[str(a.term.fallthrough)]
            if _is_bare_exit(x):
                a.term = Exit(g, y.label)
            elif _is_bare_exit(y):
                a.term = Exit(not_g, x.label)
            elif (_convertible(y, g, preds) and str(y.term.target) == x.label
                  and len(y.instrs) <= MAX_ARM):
                a.instrs += _guarded(y.instrs, not_g)
                a.term = Jump(x.label)
            elif (_convertible(x, g, preds) and str(x.term.target) == y.label
                  and len(x.instrs) <= MAX_ARM):
                a.instrs += _guarded(x.instrs, g)
                a.term = Jump(y.label)
            elif (_convertible(x, g, preds) and _convertible(y, g, preds)
                  and str(x.term.target) == str(y.term.target)
                  and len(x.instrs) + len(y.instrs) <= MAX_ARM
                  and not any(g.pred in i.regs_written() for i in y.instrs)):
                a.instrs += _guarded(y.instrs, not_g) + _guarded(x.instrs, g)
                a.term = Jump(str(x.term.target))
            else:
                continue
            prog = simplify(prog)
            changed = True
            break
    return prog
