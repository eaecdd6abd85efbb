"""Names of the machine state a user can point at: a register of a lane, a memory word, an element
of a kernel's array argument. One grammar for fault injection (engine/faults.py, ``--inject``) and
for the debugger's watchpoints and breakpoint conditions (app/debugger/breakpoints.py)::

    rN@wW.lL   register N (1..15) of lane L of warp W
    rN@lL      register N of lane L of the warp in context (a breakpoint's EXEC); only where allowed
    mem[A]     memory word A
    NAME[I]    element I of the kernel's array argument NAME
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from compiler.errors import LaunchError
from compiler.machine.config import MachineConfig

PATTERN = r"(?:r(?P<reg>\d+)@(?:w(?P<warp>\d+)\.)?l(?P<lane>\d+)|mem\[(?P<addr>\d+)\]|(?P<array>[A-Za-z_]\w*)\[(?P<index>\d+)\])"
"""The target grammar as a regular expression (named groups), for the grammars that embed it."""

FORMS = "rN@wW.lL (register N of lane L of warp W), mem[A] (memory word A) or NAME[I] (element I of array NAME)"


@dataclass(frozen=True)
class Target:
    kind: str
    """``reg`` or ``mem``."""
    reg: int = 0
    lane: int = 0
    warp: int | None = 0
    """None: the warp in context (``rN@lL``)."""
    addr: int = 0

    def where(self, warp: int | None = None) -> str:
        if self.kind == "reg":
            w = self.warp if self.warp is not None else warp
            return f"register r{self.reg} of warp {'?' if w is None else w} lane {self.lane}"
        return f"memory word {self.addr}"

    def key(self, warp: int | None = None) -> tuple:
        """("reg", warp, lane, reg) or ("mem", addr): the entry of the machine state it names."""
        if self.kind == "reg":
            return ("reg", self.warp if self.warp is not None else warp, self.lane, self.reg)
        return ("mem", self.addr)


def resolve(m: re.Match, what: str, launch, cfg: MachineConfig, warp_optional: bool = False) -> Target:
    """The Target a match of ``PATTERN`` names in this launch; a LaunchError starting with ``what``
    saying what is wrong."""
    if m["reg"] is not None:
        reg, lane = int(m["reg"]), int(m["lane"])
        warp = int(m["warp"]) if m["warp"] is not None else None
        if warp is None and not warp_optional:
            raise LaunchError(f"{what}: name the warp: r{reg}@wW.l{lane}")
        if not 1 <= reg < cfg.regs:
            raise LaunchError(f"{what}: register r{reg}: registers are r1..r{cfg.regs - 1} (r0 reads 0)")
        nwarps = launch.warps
        if (warp is not None and warp >= nwarps) or lane >= cfg.lanes:
            raise LaunchError(f"{what}: this launch has warps 0..{nwarps - 1} of lanes 0..{cfg.lanes - 1}")
        return Target("reg", reg=reg, lane=lane, warp=warp)
    if m["addr"] is not None:
        addr = int(m["addr"])
        if addr >= cfg.mem_words:
            raise LaunchError(f"{what}: memory words are 0..{cfg.mem_words - 1}")
        return Target("mem", addr=addr)
    arrays = launch.layout.arrays
    name, index = m["array"], int(m["index"])
    if name not in arrays:
        raise LaunchError(f"{what}: no array argument {name!r} (arrays: {', '.join(arrays) or 'none'})")
    base, n = arrays[name]
    if index >= n:
        raise LaunchError(f"{what}: {name} has {n} elements")
    return Target("mem", addr=base + index)


def parse_target(text: str, launch, cfg: MachineConfig, warp_optional: bool = False) -> Target:
    m = re.fullmatch(r"\s*" + PATTERN + r"\s*", text)
    if not m:
        raise LaunchError(f"{text.strip()!r} is not a register or memory word: use {FORMS}")
    return resolve(m, repr(text.strip()), launch, cfg, warp_optional)
