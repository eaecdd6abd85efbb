"""The virtual-register control-flow graph between lowering and register allocation.

A :class:`VBlock` is one PTX basic block lowered to machine instructions that still
name virtual registers; blocks stay in PTX text order, which is the order the ROM
keeps (the reconvergence rule depends on it: see docs/machine.md).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from compiler.machine.isa import Instr, Terminator, successors


@dataclass
class VBlock:
    label: str
    instrs: list[Instr] = field(default_factory=list)
    term: Terminator | None = None
    ptx_line: int = 0

    def succs(self) -> list[str]:
        assert self.term is not None
        return [str(s) for s in successors(self.term)]


@dataclass
class VProgram:
    blocks: list[VBlock]

    def by_label(self) -> dict[str, VBlock]:
        return {b.label: b for b in self.blocks}
