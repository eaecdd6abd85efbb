"""The debugging session: steps a backend (the model, or a replay) and says what to show.

UI-free and blocking; the app runs every command in a thread worker. Numbering, used
everywhere (UI, replay file, docs): **tokens are counted from 0** (token 0 is the first
generated token, the first ``EXEC``); **position** ``pos`` = forward passes done = tokens
generated, so after pass ``pos`` the last token is token ``pos - 1``; **EXEC steps are counted
from 0** like the interpreter's events. The prompt is fed in the first pass.

Commands (each returns a ``Stop``): ``step`` one forward pass; ``step_exec`` to the next EXEC;
``cont`` to the next breakpoint, the end, or the first token where the model departs from the
interpreter; ``finish`` to the end; ``back``/``back_exec``/``back_cont``/``back_finish`` the same
backwards (exact: backends.py); ``restart``.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass, field
from typing import Callable

from compiler.circuit.protocol import Token, is_exec
from compiler.errors import LaunchError
from compiler.machine.config import MachineConfig
from compiler.machine.isa import Program
from engine.launch import Launch

from app.debugger.backends import Backend
from app.debugger.breakpoints import Breakpoint, BreakpointError, Breakpoints, exec_fields, parse
from app.debugger.reference import Reference
from app.debugger.state import LowMargin, MachineState, Mismatch, RefState, compare, low_margins

MAX_TOKENS = 200_000
"""A continue stops after this many tokens without END (a runaway kernel or a lost model)."""


@dataclass
class Kernel:
    """The program being debugged and its launch (what a reload replaces)."""

    program: Program
    launch: Launch
    cfg: MachineConfig
    name: str
    """The kernel file's name (no directories: shown, recorded, snapshotted)."""
    args: dict[str, str]
    grid: int
    block: int

    @property
    def warps(self) -> int:
        return self.launch.warps

    def cta_of(self, warp: int) -> int:
        return next((t.cta for t in self.launch.threads if t.warp == warp), 0)


@dataclass(frozen=True)
class Stop:
    """Why a command stopped, in words for the status line."""

    kind: str
    """launch, step, exec, breakpoint, end, mismatch, interrupt, limit, back, restart, reload, fault."""
    text: str
    breakpoint: str | None = None


@dataclass(frozen=True)
class ExecStep:
    """The EXEC step the current token belongs to."""

    index: int
    """EXEC step number, from 0."""
    pos: int
    """Token index of its EXEC token."""
    block: int
    warp: int
    mask: int


@dataclass
class Frame:
    """Everything the panes show at one position."""

    kernel: Kernel
    backend: str
    pos: int
    tokens: list[str]
    """The generated tokens up to this position (token i = index i)."""
    margins: list[float]
    prompt_len: int
    step: ExecStep | None
    records: list[str]
    """The tokens of the current step after its EXEC, up to this position."""
    state: MachineState
    changed: set[tuple]
    """Entries that changed since the previous stop: ("reg", w, l, r), ("pred", w, l, p), ("pc", w, l), ("mem", a)."""
    ref: RefState | None
    mismatches: list[Mismatch]
    lows: list[LowMargin]
    departure: int | None
    """First token index where the model's token differs from the interpreter's (None: none so far)."""
    expected: str | None
    """The interpreter's token at ``departure``."""
    expected_next: str | None
    """The interpreter's token at index ``pos`` (what the model should write next)."""
    fault: str | None
    done: bool
    stop: Stop
    last_write: dict[int, int] = field(default_factory=dict)
    """Memory word -> EXEC step of its last write (from the model's M records)."""
    last_read: dict[int, int] = field(default_factory=dict)
    """Memory word -> EXEC step of its last read (from the interpreter: reads leave no token)."""
    rom: dict | str = field(default_factory=dict)
    """(block, slot) -> fields decoded from the model's ROM rows, or why they could not be."""
    breakpoints: Breakpoints | None = None
    layout: dict | None = None
    """The checkpoint's qgpu_layout.json (layer table, state map), for the pipeline pane."""
    injected: list[str] = field(default_factory=list)
    """The faults injected into the model so far, described (``Session.inject``)."""
    probe: object = None
    """The per-layer probe of the pass that produced the current token (app/debugger/probe.py),
    a string saying why there is none, or None when the probe is off."""


class Session:
    def __init__(self, backend: Backend, kernel: Kernel, breakpoints: Breakpoints | None = None,
                 recorder=None, make_backend: Callable[[Kernel], Backend] | None = None,
                 history: tuple[list[str], list[float]] | None = None):
        self.backend = backend
        self.kernel = kernel
        self.breakpoints = breakpoints or Breakpoints()
        self.recorder = recorder
        self.make_backend = make_backend
        """Builds a backend for a reloaded kernel (None: this session cannot reload, e.g. a replay)."""
        self.interrupt = threading.Event()
        self.on_pass: Callable[[int], None] | None = None
        """Called after every forward pass with the new position (progress display)."""
        self.probe_on = False
        """Compute the per-layer probe in every frame (the probe pane is shown)."""
        self._reset(history)

    def _reset(self, history=None) -> None:
        self.history: list[str] = list(history[0]) if history else []
        self.margins: list[float] = list(history[1]) if history else []
        self.reference = Reference(self.kernel.program, self.kernel.launch, self.kernel.cfg)
        self._exec_pos: list[int] = []
        self._exec_of: list[int] = []
        """EXEC step index of every history token (-1 before the first EXEC)."""
        self._checked = 0
        self.departure: int | None = None
        self._prev: MachineState | None = None
        self._log: dict[int, dict[tuple, int]] = {}
        """Position -> the decoded values of the state entries watchpoints and conditions read
        (``Breakpoints.keys``), after that many passes: what watchpoints compare, forwards and back."""
        if self.recorder:
            self.recorder.begin(self)

    # --- bookkeeping over the token history --------------------------------------------------
    def _index(self, upto: int) -> None:
        for i in range(len(self._exec_of), min(upto, len(self.history))):
            if is_exec(self.history[i]):
                self._exec_pos.append(i)
            self._exec_of.append(len(self._exec_pos) - 1)
        for i in range(self._checked, min(upto, len(self.history))):
            if self.departure is None and self.reference.token(i) != self.history[i]:
                self.departure = i
            self._checked = i + 1

    @property
    def pos(self) -> int:
        return self.backend.pos

    @property
    def done(self) -> bool:
        return self.pos > 0 and self.history[self.pos - 1] == "END"

    def _pass(self) -> str | None:
        """One forward pass (or replayed token); None at the end."""
        pos = self.pos
        if pos > 0 and self.history[pos - 1] == "END":
            return None
        keys = self.breakpoints.keys(self.kernel.warps)
        if keys:
            self._values(pos, keys)  # the value before this pass, for a watchpoint's comparison
        got = self.backend.forward()
        if got is None:
            return None
        tok, margin = got
        if pos < len(self.history):
            if self.history[pos] != tok:
                from app.debugger.backends import NondeterminismError
                raise NondeterminismError(f"token {pos}: got {tok}, earlier {self.history[pos]}")
        else:
            self.history.append(tok)
            self.margins.append(margin)
            if self.recorder:
                self.recorder.add(pos, tok, margin, self.backend.state(self.kernel.warps))
        self._index(pos + 1)
        if keys:
            self._values(pos + 1, keys)
        if self.on_pass is not None:
            self.on_pass(pos + 1)
        return tok

    # --- watchpoints and conditions ----------------------------------------------------------------
    def _values(self, pos: int, keys: list[tuple]) -> dict[tuple, int] | None:
        """The decoded values of ``keys`` after ``pos`` passes: from the log, or read from the state
        when the session is there (None: not known without re-executing)."""
        have = self._log.get(pos)
        if have is not None and all(k in have for k in keys):
            return have
        if pos != self.pos or pos == 0:
            return None
        st = self.backend.state(self.kernel.warps)
        vals = {k: (st.regs[k[1]][k[2]][k[3]].value if k[0] == "reg" else st.memory[k[1]].value) for k in keys}
        self._log[pos] = {**(have or {}), **vals}
        return self._log[pos]

    def _hit(self, pos: int) -> tuple[Breakpoint, str] | None:
        """The breakpoint or watchpoint that stops after pass ``pos`` (from the log and the token),
        and what it saw."""
        tok = self.history[pos - 1]
        keys = self.breakpoints.keys(self.kernel.warps)
        vals = (lambda: self._values(pos, keys)) if keys else None
        if (bp := self.breakpoints.hit(tok, self.kernel.program, vals)) is not None:
            return bp, f"token {pos - 1} = {tok}"
        if pos < 2:
            return None
        for bp in self.breakpoints.watches():
            before, after = self._values(pos - 1, keys), self._values(pos, keys)
            if before is None or after is None:
                continue
            k = bp.target.key()
            if before[k] != after[k]:
                return bp, f"{bp.target.where()} {before[k]} -> {after[k]} (pass {pos}, token {pos - 1} = {tok})"
        return None

    def _fill_log(self, upto: int) -> None:
        """Decode the watched values at every position 1..upto (re-executing from the launch when
        some are not known); ends at ``upto``."""
        keys = self.breakpoints.keys(self.kernel.warps)
        if all(self._values(p, keys) is not None for p in range(1, upto + 1)):
            return
        self.goto(1)
        self._values(1, keys)
        for p in range(2, upto + 1):
            self.backend.seek(p, self.history)
            self._values(p, keys)

    # --- commands -----------------------------------------------------------------------------
    def here(self) -> Stop:
        """No move: decode the state again (after an injection, a refresh)."""
        return Stop("here", f"at token {self.pos - 1}")

    def start(self) -> Stop:
        """Feed the prompt (the first pass: token 0, the first EXEC); then stop at the launch or
        continue to the first breakpoint."""
        if self.pos == 0:
            if self._pass() is None:
                return Stop("end", "the recording holds no tokens")
        if self.breakpoints.on_launch:
            return Stop("launch", "at the launch: the prompt is fed, token 0 chose the first EXEC")
        return self.cont()

    def _departs_here(self) -> bool:
        """The token just produced is the first one that differs from the interpreter's."""
        return self.departure is not None and self.departure == self.pos - 1

    def step(self) -> Stop:
        tok = self._pass()
        if tok is None:
            return self._at_end()
        if (hit := self._hit(self.pos)) is not None:
            bp, what = hit
            bp.hits += 1
            return Stop("breakpoint", f"one forward pass: {what}, breakpoint {bp.spec}", bp.spec)
        if self._departs_here():
            return Stop("mismatch", f"one forward pass: token {self.pos - 1} = {tok}: the model departs from "
                                    "the interpreter")
        return Stop("step", f"one forward pass: token {self.pos - 1} = {tok}")

    def step_exec(self) -> Stop:
        first = True
        while first or not (is_exec(self.history[self.pos - 1]) or self.done):
            first = False
            if self.interrupt.is_set():
                return Stop("interrupt", "interrupted")
            if self._pass() is None:
                return self._at_end()
        if self.done:
            return self._at_end()
        return Stop("exec", f"at the next EXEC: token {self.pos - 1} = {self.history[self.pos - 1]}")

    def cont(self, ignore_breakpoints: bool = False) -> Stop:
        n = 0
        while True:
            if self.interrupt.is_set():
                return Stop("interrupt", f"interrupted at token {self.pos - 1}")
            tok = self._pass()
            if tok is None:
                return self._at_end()
            n += 1
            if tok == "END":
                return self._at_end()
            if ignore_breakpoints:
                pass
            elif (hit := self._hit(self.pos)) is not None:
                bp, what = hit
                bp.hits += 1
                return Stop("breakpoint", f"breakpoint {bp.spec} hit: {what}", bp.spec)
            elif self.breakpoints.on_mismatch and self._departs_here():
                return Stop("mismatch", f"the model departs from the interpreter at token {self.departure}")
            if n >= MAX_TOKENS:
                return Stop("limit", f"{MAX_TOKENS} tokens without END: stopped")

    def finish(self) -> Stop:
        return self.cont(ignore_breakpoints=True)

    def _at_end(self) -> Stop:
        if self.done:
            return Stop("end", f"the launch has ended: token {self.pos - 1} = END")
        return Stop("end", f"end of the recording after token {self.pos - 1}")

    def goto(self, pos: int) -> None:
        """Be at ``pos``: back by restoring (exact), forward by forward passes (or the replay)."""
        pos = max(1, pos)
        known = min(pos, len(self.history))
        if known != self.pos:
            self.backend.seek(known, self.history)
        while self.pos < pos and not self.done and not self.interrupt.is_set():
            if self._pass() is None:
                break

    def back(self) -> Stop:
        if self.pos <= 1:
            return Stop("back", "already at the launch (token 0)")
        self.goto(self.pos - 1)
        return Stop("back", f"one pass back: token {self.pos - 1} = {self.history[self.pos - 1]}")

    def back_exec(self) -> Stop:
        self._index(self.pos)
        cur = self._exec_of[self.pos - 1] if self.pos else -1
        if cur < 0:
            return self.back()
        target = self._exec_pos[cur]
        if target == self.pos - 1:  # at an EXEC: the previous one
            target = self._exec_pos[cur - 1] if cur > 0 else 0
        self.goto(target + 1)
        return Stop("back", f"back to EXEC step {self._exec_of[self.pos - 1]}: token {self.pos - 1} = "
                            f"{self.history[self.pos - 1]}")

    def back_cont(self) -> Stop:
        cur = self.pos
        if self.breakpoints.keys(self.kernel.warps):
            self._fill_log(cur)
        for p in range(cur - 1, 0, -1):
            if (hit := self._hit(p)) is not None:
                bp, what = hit
                self.goto(p)
                return Stop("breakpoint", f"back to breakpoint {bp.spec}: {what}", bp.spec)
        self.goto(1)
        return Stop("back", "back at the launch (no breakpoint hit before)")

    def back_finish(self) -> Stop:
        self.goto(1)
        return Stop("back", "back at the launch (token 0)")

    def restart(self) -> Stop:
        """Run the launch again from the start (the prompt pass's exact state)."""
        self.goto(1)
        self._prev = None
        if self.breakpoints.on_launch:
            return Stop("restart", "restarted: at the launch (token 0)")
        return self.cont()

    def reload(self, kernel: Kernel) -> tuple[Stop, list[str]]:
        """Switch to a recompiled kernel: a new launch; breakpoints that cannot hit are dropped."""
        if self.make_backend is None:
            raise RuntimeError("this session cannot reload (a replay)")
        backend = self.make_backend(kernel)
        self.kernel, self.backend = kernel, backend
        dropped = self.breakpoints.revalidate(kernel.program, kernel.warps, kernel.launch, kernel.cfg)
        self._reset()
        stop = self.start()
        return Stop("reload", f"reloaded {kernel.name}: launch restarted; {stop.text}"), dropped

    def add_breakpoint(self, text: str) -> Breakpoint:
        bp = parse(text)
        why = bp.makes_sense(self.kernel.program, self.kernel.warps)
        if why:
            raise BreakpointError(f"this breakpoint can never hit: {why}")
        try:
            bp.resolve(self.kernel.launch, self.kernel.cfg)
        except LaunchError as e:
            raise BreakpointError(e.message) from None
        return self.breakpoints.add(bp)

    # --- fault injection (engine/faults.py; docs/debugger.md) ---------------------------------
    def check_fault(self, text: str):
        """``text`` (``TARGET [OP]``, as ``qgpu run --inject`` takes it without ``@STEP``) as a Fault,
        or a LaunchError / ValueError saying why it cannot be injected here."""
        from engine.faults import parse_fault

        if not hasattr(self.backend, "inject"):
            raise ValueError("fault injection needs the model (a replay has no state to change)")
        if self.recorder:
            raise ValueError("fault injection is not recorded in replay files: run without --record")
        if "@" in text.replace("@w", ""):
            raise ValueError("give TARGET [OP] without @STEP: the fault lands before the next EXEC step")
        fault = parse_fault(f"{text}@0", self.kernel.launch, self.kernel.cfg)
        if fault.silences:
            from engine.faults import check_unit

            check_unit(fault, self.backend.gpu.path)
        return fault

    def inject(self, text: str) -> Stop:
        """Write a fault into the model's state before an EXEC step: the current token's when it is
        an EXEC (its pass is next), else the next one's (stepping there first). The launch goes on
        from there on the model; the interpreter beside it stays fault-free, so the diff shows the
        change and a continue stops at the first token where it shows."""
        from dataclasses import replace

        fault = self.check_fault(text)
        if not is_exec(self.history[self.pos - 1]):
            stop = self.step_exec()
            if stop.kind != "exec":
                return Stop(stop.kind, f"{stop.text}; no EXEC step left to inject {text.strip()} before")
        self._index(self.pos)
        step = self._exec_of[self.pos - 1]
        fault = replace(fault, step=step, text=f"{text.strip()}@{step}")
        old, new = self.backend.inject(fault)
        self._truncate(self.pos)
        what = (f"silenced from EXEC step {step} on" + ("" if old else " (no output already: nothing changes)")
                if fault.silences else f"{old:#x} -> {new:#x} before EXEC step {step}")
        return Stop("fault", f"fault {fault.text}: {fault.where()} {what} "
                             f"(token {self.pos - 1}); the interpreter goes on without it")

    @property
    def faults(self) -> list:
        """The faults injected into this launch (engine/faults.py) that the model holds, in position
        order: the backend's (one injected at an earlier position drops those after it)."""
        held = getattr(self.backend, "faults", {})
        return [f for p in sorted(held) for f in held[p]]

    def clear_faults(self) -> Stop:
        n = len(self.faults)
        first = self.backend.clear_faults() if hasattr(self.backend, "clear_faults") else None
        if first is None:
            return Stop("here", "no faults to clear")
        self._truncate(first)
        self.goto(first)
        return Stop("back", f"{n} fault(s) cleared: back at token {self.pos - 1}, where the first was injected")

    def _truncate(self, pos: int) -> None:
        """Forget the tokens after ``pos`` (the launch changed there)."""
        del self.history[pos:]
        del self.margins[pos:]
        del self._exec_of[pos:]
        self._exec_pos = [p for p in self._exec_pos if p < pos]
        self._checked = min(self._checked, pos)
        self._log = {p: v for p, v in self._log.items() if p < pos}  # the state at pos changed too
        if self.departure is not None and self.departure >= pos:
            self.departure = None

    # --- what to show -------------------------------------------------------------------------
    def frame(self, stop: Stop) -> Frame:
        pos = self.pos
        self._index(pos)
        k = self.kernel
        state = self.backend.state(k.warps)
        step = None
        records: list[str] = []
        fed = 0
        cur = self._exec_of[pos - 1] if pos else -1
        if cur >= 0:
            e = self._exec_pos[cur]
            b, w, m = exec_fields(self.history[e])
            step = ExecStep(cur, e, b, w, m)
            records = self.history[e + 1:pos]
            fed = pos - 1 - e  # tokens of this step fed to the model so far (the EXEC first)
        at_end = pos > 0 and self.history[pos - 1] == "END"
        ref_step = len(self._exec_pos[:cur + 1]) if at_end else max(cur, 0)
        ref = self.reference.state_at(ref_step, 0 if at_end or cur < 0 else fed) if pos else None
        mism = compare(state, ref, k.cfg, k.launch.layout.owner) if ref else []
        lows = low_margins(state, k.launch.layout.owner)
        changed = _changed(self._prev, state)
        self._prev = state
        last_write: dict[int, int] = {}
        for i, t in enumerate(self.history[:pos]):
            if t.startswith("M.") and (a := Token.parse(t).stored_word) is not None:
                last_write[a] = self._exec_of[i]
        last_read: dict[int, int] = {}
        for s in range(max(cur, -1) + 1):
            ev = self.reference.event(s)
            if ev is None:
                break
            for a in ev.mem_reads:
                last_read[a] = s
        try:
            rom: dict | str = self.backend.rom()
        except ValueError as e:
            rom = f"ROM state corrupt: {e}"
        dep = self.departure if self.departure is not None and self.departure < pos else None
        probe = None
        if self.probe_on:
            if not hasattr(self.backend, "probe"):
                probe = "the probe needs the model (a replay holds no activations)"
            elif pos < 1:
                probe = "no pass yet"
            else:
                probe = self.backend.probe(self.history)
        return Frame(kernel=k, backend=self.backend.label, pos=pos, tokens=self.history[:pos],
                     margins=self.margins[:pos], prompt_len=len(self.backend.prompt), step=step,
                     records=records, state=state, changed=changed, ref=ref, mismatches=mism, lows=lows,
                     departure=dep, expected=self.reference.token(dep) if dep is not None else None,
                     expected_next=self.reference.token(pos), fault=self.reference.fault, done=at_end,
                     stop=stop, last_write=last_write, last_read=last_read, rom=rom,
                     breakpoints=self.breakpoints, layout=getattr(self.backend, "layout", None),
                     injected=[f"{f.text}: {f.where()} " + (f"silenced from EXEC step {f.step} on" if f.silences
                                                            else f"before EXEC step {f.step}") for f in self.faults],
                     probe=probe)


def _changed(prev: MachineState | None, cur: MachineState) -> set[tuple]:
    if prev is None:
        return set()
    out: set[tuple] = set()
    for w, lanes in cur.regs.items():
        for lane, row in enumerate(lanes):
            for r, wd in enumerate(row):
                if w in prev.regs and prev.regs[w][lane][r].value != wd.value:
                    out.add(("reg", w, lane, r))
    for w, lanes in cur.preds.items():
        for lane, row in enumerate(lanes):
            for p, wd in enumerate(row):
                if w in prev.preds and prev.preds[w][lane][p].value != wd.value:
                    out.add(("pred", w, lane, p))
    for w, row in cur.pcs.items():
        for lane, wd in enumerate(row):
            if w in prev.pcs and (prev.pcs[w][lane].value, prev.pcs[w][lane].written) != (wd.value, wd.written):
                out.add(("pc", w, lane))
    for a, wd in enumerate(cur.memory):
        if prev.memory[a].value != wd.value:
            out.add(("mem", a))
    return out
