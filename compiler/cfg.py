"""The virtual-register control-flow graph between lowering and register allocation.

A :class:`VBlock` is one PTX basic block lowered to machine instructions that still
name virtual registers; blocks stay in PTX text order, which is the order the ROM
keeps (the reconvergence rule depends on it: see docs/machine.md).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from compiler.machine.isa import Barrier, Branch, Exit, Instr, Jump, Terminator, successors


@dataclass
class VBlock:
    label: str
    instrs: list[Instr] = field(default_factory=list)
    term: Terminator | None = None
    ptx_line: int = 0
    serial: bool = False
    """Runs one lane at a time (an atomic's read-modify-write: compiler/isel_atomic.py)."""

    def succs(self) -> list[str]:
        assert self.term is not None
        return [str(s) for s in successors(self.term)]


@dataclass
class VProgram:
    blocks: list[VBlock]

    def by_label(self) -> dict[str, VBlock]:
        return {b.label: b for b in self.blocks}


def simplify(prog: VProgram) -> VProgram:
    """Thread jumps through empty blocks, drop unreachable ones, merge straight-line chains.

    Keeps PTX text order. Fewer, fuller blocks mean fewer EXEC passes per launch.
    """
    blocks = prog.blocks
    while True:
        by = {b.label: b for b in blocks}

        def final(label: str) -> str:
            seen = set()
            while label in by and not by[label].instrs and isinstance(by[label].term, Jump) \
                    and label not in seen and label != blocks[0].label:
                seen.add(label)
                label = str(by[label].term.target)
            return label

        for b in blocks:
            if not b.serial:  # a serial block's jump stays: its target must lie above it
                b.term = _retarget(b.term, final)
        # reachability from the entry
        reach, todo = set(), [blocks[0].label]
        while todo:
            lab = todo.pop()
            if lab in reach or lab not in by:
                continue
            reach.add(lab)
            todo.extend(by[lab].succs())
        blocks = [b for b in blocks if b.label in reach]
        # merge b -> next when next is b's only successor and b is next's only predecessor (an
        # atomic's serial block stays on its own: compiler/isel_atomic.py)
        preds: dict[str, int] = {}
        for b in blocks:
            for s_ in set(b.succs()):
                preds[s_] = preds.get(s_, 0) + 1
        merged = False
        for i in range(len(blocks) - 1):
            b, n = blocks[i], blocks[i + 1]
            if (isinstance(b.term, Jump) and str(b.term.target) == n.label and preds.get(n.label) == 1
                    and not b.serial and not n.serial):
                b.instrs.extend(n.instrs)
                b.term = n.term
                del blocks[i + 1]
                merged = True
                break
        if not merged:
            return VProgram(blocks)


def _retarget(term, f):
    if isinstance(term, Jump):
        return Jump(f(str(term.target)))
    if isinstance(term, Branch):
        target, fall = f(str(term.target)), f(str(term.fallthrough))
        return Jump(target) if target == fall else Branch(term.guard, target, fall)
    if isinstance(term, Barrier):
        return Barrier(f(str(term.target)))
    if isinstance(term, Exit) and term.fallthrough is not None:
        return Exit(term.guard, f(str(term.fallthrough)))
    return term
