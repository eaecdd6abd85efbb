"""Breakpoints: ``EXEC(b,w)`` with wildcards, source lines, break on launch and on mismatch.

A breakpoint stops a continue right after the forward pass whose token is a matching
``EXEC.b.w.m`` — the block is chosen, its pass has not run yet. Forms (``parse``):

* ``EXEC(3,1)`` block 3 for warp 1; ``EXEC(3,*)`` any warp entering block 3; ``EXEC(*,2)``
  every step of warp 2; ``B3`` is short for ``EXEC(3,*)``.
* ``line 12`` (or ``12``): any EXEC of a block compiled from CUDA line 12 (resolved against the
  program, so it survives a reload that moves blocks).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from compiler.machine.isa import Program


class BreakpointError(ValueError):
    """Text that is not a breakpoint (the message says what is expected)."""


_EXEC = re.compile(r"^EXEC\s*\(\s*(\*|\d+)\s*,\s*(\*|\d+)\s*\)$", re.I)
_BLOCK = re.compile(r"^B(\d+)$", re.I)
_LINE = re.compile(r"^(?:line\s+)?(\d+)$", re.I)

FORMS = "EXEC(b,w) with b, w numbers or *, B<n>, or line <n>"


@dataclass
class Breakpoint:
    block: int | None = None
    """None: any block (``*``)."""
    warp: int | None = None
    line: int | None = None
    """A CUDA source line instead of a block."""
    enabled: bool = True
    hits: int = 0

    @property
    def spec(self) -> str:
        if self.line is not None:
            return f"line {self.line}"
        b = "*" if self.block is None else str(self.block)
        w = "*" if self.warp is None else str(self.warp)
        return f"EXEC({b},{w})"

    def blocks(self, program: Program) -> set[int] | None:
        """The blocks this breakpoint stops at (None: every block)."""
        if self.line is not None:
            return {b.index for b in program.blocks if self.line in b.cuda_lines}
        return None if self.block is None else {self.block}

    def matches(self, block: int, warp: int, program: Program) -> bool:
        if not self.enabled or (self.warp is not None and self.warp != warp):
            return False
        blocks = self.blocks(program)
        return blocks is None or block in blocks

    def makes_sense(self, program: Program, warps: int) -> str | None:
        """Why this breakpoint can never hit in this program (None: it can)."""
        if self.block is not None and self.block >= len(program.blocks):
            return f"{self.spec}: the program has {len(program.blocks)} blocks (B0-B{len(program.blocks) - 1})"
        if self.warp is not None and self.warp >= warps:
            return f"{self.spec}: the launch has {warps} warp{'s' * (warps != 1)}"
        if self.line is not None and not self.blocks(program):
            return f"{self.spec}: no block is compiled from that line"
        return None


def parse(text: str) -> Breakpoint:
    t = text.strip()
    if m := _EXEC.match(t):
        b, w = (None if g == "*" else int(g) for g in m.groups())
        return Breakpoint(block=b, warp=w)
    if m := _BLOCK.match(t):
        return Breakpoint(block=int(m.group(1)))
    if m := _LINE.match(t):
        return Breakpoint(line=int(m.group(1)))
    raise BreakpointError(f"not a breakpoint: {text.strip()!r} (use {FORMS})")


def exec_fields(token: str) -> tuple[int, int, int] | None:
    """(block, warp, mask) of an ``EXEC.b.w.m`` token, else None."""
    if not token.startswith("EXEC."):
        return None
    b, w, m = token[5:].split(".")
    return int(b), int(w), int(m)


@dataclass
class Breakpoints:
    items: list[Breakpoint] = field(default_factory=list)
    on_launch: bool = True
    """Stop when the launch starts (after the prompt pass, at the first EXEC)."""
    on_mismatch: bool = True
    """A continue stops where the model's token first departs from the interpreter's."""

    def add(self, bp: Breakpoint) -> Breakpoint:
        for old in self.items:
            if old.spec == bp.spec:
                old.enabled = True
                return old
        self.items.append(bp)
        return bp

    def hit(self, token: str, program: Program) -> Breakpoint | None:
        f = exec_fields(token)
        if f is None:
            return None
        for bp in self.items:
            if bp.matches(f[0], f[1], program):
                return bp
        return None

    def revalidate(self, program: Program, warps: int) -> list[str]:
        """Drop the breakpoints that cannot hit in a reloaded program; why, for each."""
        dropped = []
        keep = []
        for bp in self.items:
            why = bp.makes_sense(program, warps)
            if why:
                dropped.append(why)
            else:
                keep.append(bp)
        self.items = keep
        return dropped
