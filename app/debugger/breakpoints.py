"""Breakpoints: ``EXEC(b,w)`` with wildcards, source lines, break on launch and on mismatch.

A breakpoint stops a continue right after the forward pass whose token is a matching
``EXEC.b.w.m`` — the block is chosen, its pass has not run yet. Forms (``parse``):

* ``EXEC(3,1)`` block 3 for warp 1; ``EXEC(3,*)`` any warp entering block 3; ``EXEC(*,2)``
  every step of warp 2; ``B3`` is short for ``EXEC(3,*)``.
* ``line 12`` (or ``12``): any EXEC of a block compiled from CUDA line 12 (resolved against the
  program, so it survives a reload that moves blocks).
* any of these ``if TARGET OP VALUE`` — a conditional breakpoint: it stops only when the condition
  holds on the model's decoded state at that EXEC (before the step runs), e.g.
  ``EXEC(3,*) if r2@l1 == 7`` (``rN@lL``: the EXEC's warp), ``B2 if out[0] != 0``; OP is one of
  ``== != < <= > >=``, values compare as signed 32-bit integers.
* ``watch TARGET`` — a watchpoint: stops after the forward pass that changes the model's value of
  a register of a lane (``watch r4@w1.l2``) or a memory word (``watch out[3]``, ``watch mem[40]``);
  reverse-continue goes back to the last change. Targets: engine/targets.py.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from compiler.circuit.protocol import Token, is_exec
from compiler.errors import LaunchError
from compiler.machine.isa import Program
from engine.targets import PATTERN, Target, parse_target


class BreakpointError(ValueError):
    """Text that is not a breakpoint (the message says what is expected)."""


_EXEC = re.compile(r"^EXEC\s*\(\s*(\*|\d+)\s*,\s*(\*|\d+)\s*\)$", re.I)
_BLOCK = re.compile(r"^B(\d+)$", re.I)
_LINE = re.compile(r"^(?:line\s+)?(\d+)$", re.I)

FORMS = "EXEC(b,w) with b, w numbers or *, B<n>, or line <n> (each may end 'if TARGET OP VALUE'), or watch TARGET"
_COND = re.compile(r"^(?P<bp>.*?)\s+if\s+(?P<target>" + PATTERN + r")\s*(?P<op>==|!=|<=|>=|<|>)\s*"
                   r"(?P<value>-?(?:0x[0-9a-fA-F]+|\d+))\s*$", re.I)
_WATCH = re.compile(r"^watch\s+(?P<target>.+)$", re.I)
OPS = {"==": lambda a, b: a == b, "!=": lambda a, b: a != b, "<": lambda a, b: a < b,
       "<=": lambda a, b: a <= b, ">": lambda a, b: a > b, ">=": lambda a, b: a >= b}


def signed32(v: int) -> int:
    v &= 0xFFFFFFFF
    return v - (1 << 32) if v >> 31 else v


@dataclass
class Breakpoint:
    block: int | None = None
    """None: any block (``*``)."""
    warp: int | None = None
    line: int | None = None
    """A CUDA source line instead of a block."""
    enabled: bool = True
    hits: int = 0
    watch: str | None = None
    """A watchpoint's target as written (the breakpoint is then a watchpoint, not an EXEC one)."""
    cond: tuple[str, str, int] | None = None
    """A condition (target as written, operator, value)."""
    target: Target | None = None
    """The watched target, or the condition's, resolved against the launch (``resolve``)."""

    @property
    def spec(self) -> str:
        if self.watch is not None:
            return f"watch {self.watch}"
        if self.line is not None:
            base = f"line {self.line}"
        else:
            b = "*" if self.block is None else str(self.block)
            w = "*" if self.warp is None else str(self.warp)
            base = f"EXEC({b},{w})"
        return base if self.cond is None else f"{base} if {self.cond[0]} {self.cond[1]} {self.cond[2]}"

    def resolve(self, launch, cfg) -> None:
        """Resolve the watched or tested target in this launch (a LaunchError says why it cannot)."""
        if self.watch is not None:
            self.target = parse_target(self.watch, launch, cfg)
        elif self.cond is not None:
            self.target = parse_target(self.cond[0], launch, cfg, warp_optional=True)

    def keys(self, warps: int) -> list[tuple]:
        """The state entries this breakpoint reads (a warp-relative register: every warp's)."""
        if self.target is None:
            return []
        if self.target.kind == "reg" and self.target.warp is None:
            return [self.target.key(w) for w in range(warps)]
        return [self.target.key()]

    def holds(self, values: dict, warp: int) -> bool:
        """The condition on decoded values (``Session``'s key -> value), at an EXEC of ``warp``."""
        if self.cond is None:
            return True
        return OPS[self.cond[1]](signed32(values[self.target.key(warp)]), self.cond[2])

    def blocks(self, program: Program) -> set[int] | None:
        """The blocks this breakpoint stops at (None: every block)."""
        if self.line is not None:
            return {b.index for b in program.blocks if self.line in b.cuda_lines}
        return None if self.block is None else {self.block}

    def matches(self, block: int, warp: int, program: Program) -> bool:
        if not self.enabled or self.watch is not None or (self.warp is not None and self.warp != warp):
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
    if m := _WATCH.match(t):
        target = m["target"].strip()
        if not re.fullmatch(PATTERN, target):
            raise BreakpointError(f"not a watchpoint: {t!r} (watch rN@wW.lL, watch mem[A] or watch NAME[I])")
        return Breakpoint(watch=target)
    if m := _COND.match(t):
        bp = parse(m["bp"])
        if bp.watch is not None:
            raise BreakpointError(f"a watchpoint takes no condition: {t!r}")
        value = int(m["value"], 0)
        if not -(1 << 31) <= value < (1 << 32):
            raise BreakpointError(f"{value} is not a 32-bit value")
        bp.cond = (m["target"], m["op"], signed32(value))
        return bp
    if " if " in f" {t} ".lower():
        raise BreakpointError(f"not a condition: {t!r} (EXEC(3,*) if r2@l1 == 7; targets rN@lL, rN@wW.lL, "
                              "mem[A], NAME[I]; operators == != < <= > >=)")
    if m := _EXEC.match(t):
        b, w = (None if g == "*" else int(g) for g in m.groups())
        return Breakpoint(block=b, warp=w)
    if m := _BLOCK.match(t):
        return Breakpoint(block=int(m.group(1)))
    if m := _LINE.match(t):
        return Breakpoint(line=int(m.group(1)))
    raise BreakpointError(f"not a breakpoint: {text.strip()!r} (use {FORMS})")


def exec_fields(token: str) -> tuple[int, int, int] | None:
    """(block, warp, mask) of an ``EXEC.b.w.m`` token, else None (``protocol.Token``)."""
    return Token.parse(token).exec_fields if is_exec(token) else None


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

    def hit(self, token: str, program: Program, values=None) -> Breakpoint | None:
        """The EXEC breakpoint ``token`` hits; ``values()`` gives the decoded state entries for
        conditions (key -> value), asked only when a conditional breakpoint matches."""
        f = exec_fields(token)
        if f is None:
            return None
        for bp in self.items:
            if not bp.matches(f[0], f[1], program):
                continue
            if bp.cond is None:
                return bp
            v = values() if values is not None else None
            if v is not None and bp.holds(v, f[1]):
                return bp
        return None

    def watches(self) -> list[Breakpoint]:
        return [bp for bp in self.items if bp.enabled and bp.watch is not None]

    def keys(self, warps: int) -> list[tuple]:
        """Every state entry an enabled watchpoint or condition reads."""
        return sorted({k for bp in self.items if bp.enabled for k in bp.keys(warps)}, key=str)

    def watched_words(self) -> set[int]:
        return {bp.target.addr for bp in self.watches() if bp.target is not None and bp.target.kind == "mem"}

    def revalidate(self, program: Program, warps: int, launch=None, cfg=None) -> list[str]:
        """Drop the breakpoints that cannot hit in a reloaded program; why, for each."""
        dropped = []
        keep = []
        for bp in self.items:
            why = bp.makes_sense(program, warps)
            if why is None and launch is not None:
                try:
                    bp.resolve(launch, cfg)
                except LaunchError as e:
                    why = f"{bp.spec}: {e.message}"
            if why:
                dropped.append(why)
            else:
                keep.append(bp)
        self.items = keep
        return dropped
