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
* exit: X or Y is an empty block that just exits: A ends in a guarded ``exit``;
* hoist: X or Y is an arm that jumps elsewhere: its instructions move into A under
  the guard and A branches straight to the arm's target (``if (c) break;`` then work);
* chain: Y (one predecessor, a short block ending in ``branch @h``) has X as one
  of its targets: A takes Y's instructions under ``@!g`` and branches on the
  combined predicate (unrolled loops with ``continue`` and ``break``).

Speculation: a moved instruction stays unguarded when running it in every lane changes
nothing any lane reads (``_speculable``): a side-effect-free op whose destinations no
lane that skips the arm reads again (not live where those lanes go next). A loop's
pointer setup hoisted out of ``if (tid < n)`` is the common case; unguarded, a kernel
parameter copy is a plain launch constant again, which rematerialisation can recompute
at its uses (compiler/remat.py) instead of sending it back as writeback tokens.
"""

from __future__ import annotations

from compiler.cfg import VBlock, VProgram, simplify
from compiler.machine.isa import Branch, Exit, Guard, Imm, Instr, Jump, Op, Pred, Reg
from compiler.regalloc import liveness
from compiler.remat import constant_defs

MAX_ARM = 6
"""Instructions an arm may have to be converted (both arms together for a diamond)."""


def _preds(prog: VProgram) -> dict[str, int]:
    count: dict[str, int] = {}
    for b in prog.blocks:
        for s in set(b.succs()):
            count[s] = count.get(s, 0) + 1
    return count


def _movable(arm: VBlock, guard: Guard, preds: dict[str, int]) -> bool:
    """Can ``arm``'s instructions run in its predecessor under ``guard``?"""
    return (preds.get(arm.label) == 1 and len(arm.instrs) <= MAX_ARM
            and all(i.guard is None and i.op not in (Op.SHFL, Op.VOTE) and guard.pred not in i.regs_written()
                    for i in arm.instrs))


def _convertible(arm: VBlock, guard: Guard, preds: dict[str, int]) -> bool:
    return isinstance(arm.term, Jump) and _movable(arm, guard, preds)


class _Temps:
    def __init__(self) -> None:
        self.n = 0

    def pred(self) -> Pred:
        self.n += 1
        return Pred(f"ifc{self.n}")


def _value(g: Guard, a: VBlock, temps: _Temps) -> Pred:
    """A predicate register holding the truth of guard ``g`` (appending a not.pred to ``a`` if needed)."""
    if not g.negate:
        return g.pred
    t = temps.pred()
    a.instrs.append(Instr(Op.PNOT, t, (g.pred,)))
    return t


def _constants(prog: VProgram) -> set:
    """Virtual registers that hold a launch constant in every lane: written once, unguarded, by
    ``param``, ``sreg`` or ``mov`` of an immediate or of another such register (the values
    rematerialisation can recompute, compiler/remat.py)."""
    return set(constant_defs(prog))


def _speculable(ins: Instr, skipped_to: set[str], live_in: dict[str, set], constants: set) -> bool:
    """May ``ins``, moved under a guard, run in every lane instead? Yes when it computes a launch
    constant (``param``, ``sreg``, ``mov`` of an immediate or of a constant register) into a
    virtual register that is not live at the entry of any block the lanes skipping it go to
    next (``skipped_to``): no lane ever reads the value it replaces. Later instructions of the
    same arm read it under the same guard. Other ops stay guarded: running them in more lanes
    would change registers that then travel back as writeback tokens."""
    if not (ins.op in (Op.PARAM, Op.SREG)
            or (ins.op is Op.MOV and (isinstance(ins.srcs[0], Imm) or ins.srcs[0] in constants))):
        return False
    d = ins.dst
    return (ins.dst2 is None and isinstance(d, Reg) and isinstance(d.n, str)
            and not any(d in live_in[t] for t in skipped_to))


def _guarded(instrs: list[Instr], g: Guard, skipped_to: set[str] = frozenset(),
             live_in: dict[str, set] | None = None, constants: set = frozenset()) -> list[Instr]:
    """``instrs`` under guard ``g``, except those that may run in every lane (``_speculable``;
    only when the caller names where the skipping lanes go: ``skipped_to``)."""
    out: list[Instr] = []
    constants = set(constants)
    for i in instrs:
        if skipped_to and _speculable(i, skipped_to, live_in, constants):
            out.append(i)
            constants.add(i.dst)  # a copy of it later in the arm may run unguarded too
        else:
            out.append(Instr(i.op, i.dst, i.srcs, i.mod, g, i.dst2, i.line))
    return out


def _is_bare_exit(b: VBlock) -> bool:
    return not b.instrs and isinstance(b.term, Exit) and b.term.guard is None


FULL, BASIC, NONE = 2, 1, 0
"""Levels: all patterns; triangle/diamond/exit only; nothing. The compiler backs off a
level when the guarded code needs more registers than a lane has."""


def if_convert(prog: VProgram, level: int = FULL) -> VProgram:
    if level == NONE:
        return prog
    temps = _Temps()
    changed = True
    while changed:
        changed = False
        by = prog.by_label()
        preds = _preds(prog)
        live = liveness(prog)
        consts = _constants(prog)
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
                a.instrs += _guarded(y.instrs, not_g, {x.label}, live, consts)
                a.term = Jump(x.label)
            elif (_convertible(x, g, preds) and str(x.term.target) == y.label
                  and len(x.instrs) <= MAX_ARM):
                a.instrs += _guarded(x.instrs, g, {y.label}, live, consts)
                a.term = Jump(y.label)
            elif (_convertible(x, g, preds) and _convertible(y, g, preds)
                  and str(x.term.target) == str(y.term.target)
                  and len(x.instrs) + len(y.instrs) <= MAX_ARM):
                a.instrs += _guarded(y.instrs, not_g) + _guarded(x.instrs, g)
                a.term = Jump(str(x.term.target))
            elif level < FULL:
                continue
            elif _convertible(y, g, preds) and y.label != a.label:
                a.instrs += _guarded(y.instrs, not_g, {x.label}, live, consts)
                a.term = Branch(g, x.label, str(y.term.target))
            elif _convertible(x, g, preds) and x.label != a.label:
                a.instrs += _guarded(x.instrs, g, {y.label}, live, consts)
                a.term = Branch(g, str(x.term.target), y.label)
            elif (isinstance(y.term, Branch) and _movable(y, g, preds) and y.label != a.label
                  and x.label in (str(y.term.target), str(y.term.fallthrough))
                  and y.term.guard.pred != g.pred):
                h = y.term.guard
                a.instrs += _guarded(y.instrs, not_g)
                # lanes reach y's other target only through !g and (h, or !h)
                other_on_h = str(y.term.fallthrough) == x.label
                other = str(y.term.target) if other_on_h else str(y.term.fallthrough)
                cond = h if other_on_h else Guard(h.pred, not h.negate)
                not_g_val, cond_val = _value(not_g, a, temps), _value(cond, a, temps)
                both = temps.pred()
                a.instrs.append(Instr(Op.PAND, both, (not_g_val, cond_val)))
                a.term = Branch(Guard(both), other, x.label)
            else:
                continue
            prog = simplify(prog)
            changed = True
            break
    return _drop_repeated_constants(prog)


def _drop_repeated_constants(prog: VProgram) -> VProgram:
    """Drop a ``mov d, imm`` (guarded or not) where d already holds that immediate in every lane
    from an unguarded ``mov`` earlier in the block. Both arms of ``sum = c ? ... : 0`` often
    start from the same constant; after if-conversion the second copy does nothing but may cost
    a block."""
    for b in prog.blocks:
        known: dict = {}  # register -> the immediate every lane holds
        kept: list[Instr] = []
        for i in b.instrs:
            if i.op is Op.MOV and isinstance(i.srcs[0], Imm) and i.dst2 is None:
                v = i.srcs[0].value & 0xFFFFFFFF
                if known.get(i.dst) == v:
                    continue
                kept.append(i)
                if i.guard is None:
                    known[i.dst] = v
                else:
                    known.pop(i.dst, None)
                continue
            kept.append(i)
            for d in i.regs_written():
                known.pop(d, None)
        b.instrs = kept
    return simplify(prog)
