"""The reference interpreter: the executable definition of the machine's semantics.

It runs a compiled :class:`Program` for a :class:`Launch` and returns the launch
trace — the ``EXEC(b,w)`` order with every register and memory write — and the
final memory. The GPU model must reproduce this trace token for token.

Scheduling and reconvergence (docs/machine.md states the same rules):

* Warps take turns round-robin: after warp w ran a block, the next warp in
  order w+1, w+2, ... (wrapping) that has a runnable lane runs next.
* A warp runs the block at the **lowest PC** among its runnable lanes, for all
  runnable lanes at that PC (the active mask). Lanes at higher PCs wait; since
  blocks keep source order, lanes that diverged reconverge where their paths
  meet.
* ``bar.sync``: a lane that reaches a barrier stops being runnable until every
  non-exited lane of its CTA is waiting at a barrier; then all are released.
* Inside a block, instructions run in lockstep: each reads the state left by
  the previous one in every active lane, then all lanes write. Atomics apply
  lane by lane in lane order.
* A **serial** block (an atomic's read-modify-write, compiler/isel_atomic.py) runs for the
  lowest of those lanes only, and after it its warp keeps the turn while any of its running
  lanes is at a serial block: the lanes run it one after another, as one atomic would apply
  them. A read-modify-write too long for one block goes on in the serial block just below it,
  which is then the warp's lowest block: it runs next, for the same lane.
* A block's **temporaries** (``Block.temps``: written, dead after the block) are seen by the
  rest of the block only: afterwards each holds its old value again, and the trace has no
  write of it (the model sends no token for it).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from compiler.errors import RuntimeFault
from compiler.machine import semantics
from compiler.machine.config import DEFAULT, MachineConfig, check_same_machine
from compiler.machine.isa import (
    Barrier, Block, Branch, Exit, Imm, Instr, Jump, Op, Pred, Program, Reg,
)
from engine.launch import Launch

RUNNING, WAITING, EXITED, ABSENT = "running", "barrier", "exited", "absent"


@dataclass
class ExecEvent:
    """One ``EXEC(b,w)``: block ``block`` ran for warp ``warp`` in the lanes of ``mask``."""

    step: int  # numbered from 0
    block: int
    warp: int
    mask: int
    """Bit i set: lane i ran this block."""
    reg_writes: dict[int, dict[int, int]] = field(default_factory=dict)
    """lane -> {register: final value written in this block}."""
    pred_writes: dict[int, dict[int, bool]] = field(default_factory=dict)
    mem_writes: list[tuple[int, int]] = field(default_factory=list)
    """(word, value) in the order the block wrote them."""
    mem_write_src: list[tuple[int, int]] = field(default_factory=list)
    """For each memory write: (k, lane) — the k-th memory-writing instruction (st/atom) of the
    block, counted from 0 in program order, and the lane that wrote."""
    writers_run: int = 0
    """Memory-writing instructions of the block run so far (guarded-off ones included)."""
    mem_reads: list[int] = field(default_factory=list)
    next_pcs: dict[int, int | None] = field(default_factory=dict)
    """lane -> PC after the block (None: the lane exited)."""
    released: list[tuple[int, int]] = field(default_factory=list)
    """Barrier releases right after this step: (CTA, how many times that CTA has been released,
    counted from 1), CTAs in ascending order."""

    @property
    def barrier_release(self) -> bool:
        return bool(self.released)

    def to_json(self) -> dict:
        return {
            "step": self.step, "block": self.block, "warp": self.warp, "mask": self.mask,
            "regs": {str(lane): {f"r{r}": v for r, v in w.items()} for lane, w in self.reg_writes.items()},
            "preds": {str(lane): {f"p{p}": int(v) for p, v in w.items()} for lane, w in self.pred_writes.items()},
            "mem": [[a, v] for a, v in self.mem_writes],
            "next_pc": {str(lane): pc for lane, pc in self.next_pcs.items()},
        }


@dataclass
class WarpState:
    warp: int
    cta: int
    pcs: list[int]
    status: list[str]
    regs: list[list[int]]
    preds: list[list[bool]]
    tids: list[int]


@dataclass
class Result:
    trace: list[ExecEvent]
    memory: list[int]
    arrays: dict[str, list[int]]
    """Final words of each pointer parameter's array (unsigned bit patterns)."""


class Interpreter:
    """Steps a launch one ``EXEC`` at a time (the debugger steps it too)."""

    def __init__(self, program: Program, launch: Launch, cfg: MachineConfig | None = None,
                 max_steps: int | None = None):
        assert launch.layout is not None
        cfg = cfg or program.machine or DEFAULT  # the machine the program was compiled for
        check_same_machine(program.machine, cfg, f"kernel '{program.kernel}'")
        self.p, self.launch, self.cfg = program, launch, cfg
        self.layout = launch.layout
        self.max_steps = max_steps or cfg.max_steps
        self.memory = [0] * cfg.mem_words
        for name, (base, n) in self.layout.arrays.items():
            data = launch.args[name]
            assert isinstance(data, list)
            self.memory[base:base + n] = data
        nwarps = max(t.warp for t in launch.threads) + 1
        self.warps: list[WarpState] = []
        for w in range(nwarps):
            lanes = {t.lane: t for t in launch.threads if t.warp == w}
            cta = next(iter(lanes.values())).cta
            self.warps.append(WarpState(
                warp=w, cta=cta, pcs=[0] * cfg.lanes,
                status=[RUNNING if lane in lanes else ABSENT for lane in range(cfg.lanes)],
                regs=[[0] * cfg.regs for _ in range(cfg.lanes)],
                preds=[[False] * cfg.preds for _ in range(cfg.lanes)],
                tids=[lanes[lane].tid if lane in lanes else -1 for lane in range(cfg.lanes)]))
        self.thread_index = {(t.warp, t.lane): k for k, t in enumerate(launch.threads)}
        self.trace: list[ExecEvent] = []
        self.last_warp = -1
        self.stay: int | None = None
        """The warp that runs next because it has not finished a serial block."""
        self.releases: dict[int, int] = {}
        """CTA -> barrier releases so far."""
        self.instr_counts: dict[str, int] = {}

    # --- scheduling ---------------------------------------------------------------------------
    def done(self) -> bool:
        return all(s in (EXITED, ABSENT) for w in self.warps for s in w.status)

    def next_warp(self) -> WarpState | None:
        if self.stay is not None:  # a serial block is not done for this warp yet
            return self.warps[self.stay]
        n = len(self.warps)
        for k in range(1, n + 1):
            w = self.warps[(self.last_warp + k) % n]
            if RUNNING in w.status:
                return w
        return None

    def step(self) -> ExecEvent | None:
        """Run one block for one warp; None when every lane has exited."""
        if self.done():
            return None
        if len(self.trace) >= self.max_steps:
            raise RuntimeFault(f"the kernel ran for {self.max_steps} EXEC steps without finishing "
                               "(a runaway loop?); raise the limit with --max-steps",
                               file=self.p.source_path or None)
        w = self.next_warp()
        if w is None:
            raise RuntimeFault("deadlock: no warp can run and not every thread has exited",
                               file=self.p.source_path or None)
        pc = min(w.pcs[lane] for lane in range(self.cfg.lanes) if w.status[lane] == RUNNING)
        lanes = [lane for lane in range(self.cfg.lanes) if w.status[lane] == RUNNING and w.pcs[lane] == pc]
        block = self.p.blocks[pc]
        if block.serial:
            lanes = lanes[:1]
        ev = ExecEvent(step=len(self.trace), block=pc, warp=w.warp, mask=sum(1 << lane for lane in lanes))
        kept = self._save_temps(block, w, lanes)
        for ins in block.instrs:
            self._exec(ins, w, lanes, block, ev)
        self._terminate(block, w, lanes, ev)
        self._restore_temps(kept, w, ev)
        self.trace.append(ev)
        self.last_warp = w.warp
        self.stay = w.warp if block.serial and any(
            s == RUNNING and self.p.blocks[p].serial for s, p in zip(w.status, w.pcs)) else None
        self._release_barriers(ev)
        return ev

    def run(self) -> Result:
        while self.step() is not None:
            pass
        return self.result()

    def result(self) -> Result:
        arrays = {name: self.memory[base:base + n] for name, (base, n) in self.layout.arrays.items()}
        return Result(self.trace, list(self.memory), arrays)

    def _save_temps(self, block: Block, w: WarpState, lanes: list[int]) -> list[tuple[object, int, object]]:
        """The old values of the block's temporaries (docs/machine.md, "Temporaries")."""
        return [(d, lane, w.preds[lane][d.n] if isinstance(d, Pred) else w.regs[lane][d.n])
                for d in block.temps for lane in lanes]

    def _restore_temps(self, kept: list[tuple[object, int, object]], w: WarpState, ev: ExecEvent) -> None:
        """After the block (terminator included) a temporary is back at its old value, and the step
        sends no record for it: only the rest of its block saw the new one."""
        for d, lane, old in kept:
            if isinstance(d, Pred):
                w.preds[lane][d.n] = old
                ev.pred_writes.get(lane, {}).pop(d.n, None)
            else:
                w.regs[lane][d.n] = old
                ev.reg_writes.get(lane, {}).pop(d.n, None)
        for writes in (ev.reg_writes, ev.pred_writes):
            for lane in [lane for lane, x in writes.items() if not x]:
                del writes[lane]

    def _release_barriers(self, ev: ExecEvent) -> None:
        for cta in sorted({w.cta for w in self.warps}):
            members = [w for w in self.warps if w.cta == cta]
            states = [s for w in members for s in w.status if s not in (ABSENT, EXITED)]
            if states and all(s == WAITING for s in states):
                for w in members:
                    w.status = [RUNNING if s == WAITING else s for s in w.status]
                self.releases[cta] = self.releases.get(cta, 0) + 1
                ev.released.append((cta, self.releases[cta]))

    def _terminate(self, block: Block, w: WarpState, lanes: list[int], ev: ExecEvent) -> None:
        t = block.term
        for lane in lanes:
            if isinstance(t, Jump):
                w.pcs[lane] = int(t.target)
            elif isinstance(t, Branch):
                w.pcs[lane] = int(t.target if self._guard(t.guard, w, lane) else t.fallthrough)
            elif isinstance(t, Barrier):
                w.pcs[lane] = int(t.target)
                w.status[lane] = WAITING
            elif isinstance(t, Exit):
                if t.guard is None or self._guard(t.guard, w, lane):
                    w.status[lane] = EXITED
                else:
                    w.pcs[lane] = int(t.fallthrough)
            ev.next_pcs[lane] = None if w.status[lane] == EXITED else w.pcs[lane]

    # --- one instruction in lockstep --------------------------------------------------------------
    def _guard(self, g, w: WarpState, lane: int) -> bool:
        return w.preds[lane][g.pred.n] != g.negate

    def _val(self, op, w: WarpState, lane: int) -> int:
        if isinstance(op, Imm):
            return op.value
        if isinstance(op, Reg):
            return 0 if op.n == 0 else w.regs[lane][op.n]
        raise TypeError(op)

    def _exec(self, ins: Instr, w: WarpState, lanes: list[int], block: Block, ev: ExecEvent) -> None:
        on = [lane for lane in lanes if ins.guard is None or self._guard(ins.guard, w, lane)]
        self.instr_counts[ins.op.value] = self.instr_counts.get(ins.op.value, 0) + len(on)
        results: dict[int, int | bool] = {}
        results2: dict[int, bool] = {}
        op = ins.op
        if op in semantics.ALU:
            f = semantics.ALU[op]
            for lane in on:
                results[lane] = f(*(self._val(s, w, lane) for s in ins.srcs))
        elif op is Op.SELP:
            for lane in on:
                a, b, p = ins.srcs
                results[lane] = self._val(a, w, lane) if w.preds[lane][p.n] else self._val(b, w, lane)
        elif op is Op.SETP:
            for lane in on:
                results[lane] = semantics.compare(ins.mod, self._val(ins.srcs[0], w, lane),
                                                  self._val(ins.srcs[1], w, lane))
        elif op in (Op.PAND, Op.POR, Op.PXOR, Op.PNOT, Op.PMOV):
            for lane in on:
                v = [w.preds[lane][s.n] for s in ins.srcs]
                results[lane] = {Op.PAND: lambda: v[0] and v[1], Op.POR: lambda: v[0] or v[1],
                                 Op.PXOR: lambda: v[0] != v[1], Op.PNOT: lambda: not v[0],
                                 Op.PMOV: lambda: v[0]}[op]()
        elif op is Op.SREG:
            for lane in on:
                results[lane] = self._special(ins.mod, w, lane)
        elif op is Op.PARAM:
            for lane in on:
                results[lane] = self.launch.param_values[ins.srcs[0].value]
        elif op in (Op.LD, Op.ST, Op.ATOM):
            self._memory(ins, w, on, block, ev, results)
        elif op is Op.SHFL:
            self._shfl(ins, w, lanes, on, block, results, results2)
        elif op is Op.VOTE:
            self._vote(ins, w, lanes, on, block, results)
        else:
            raise AssertionError(f"no semantics for {op}")
        for lane, v in results.items():
            self._write(ins.dst, w, lane, v, ev)
        for lane, v in results2.items():
            self._write(ins.dst2, w, lane, v, ev)

    def _write(self, dst, w: WarpState, lane: int, v, ev: ExecEvent) -> None:
        if isinstance(dst, Pred):
            w.preds[lane][dst.n] = bool(v)
            ev.pred_writes.setdefault(lane, {})[dst.n] = bool(v)
        elif isinstance(dst, Reg) and dst.n != 0:
            w.regs[lane][dst.n] = int(v) & 0xFFFFFFFF
            ev.reg_writes.setdefault(lane, {})[dst.n] = int(v) & 0xFFFFFFFF

    def _hw_lane(self, w: WarpState, lane: int) -> int:
        """The lane this thread would have in a 32-lane NVIDIA warp."""
        return w.tids[lane] % 32

    def _special(self, name: str, w: WarpState, lane: int) -> int:
        L = self.launch
        hw = self._hw_lane(w, lane)
        table = {
            "tid.x": w.tids[lane], "tid.y": 0, "tid.z": 0,
            "ntid.x": L.block, "ntid.y": 1, "ntid.z": 1,
            "ctaid.x": w.cta, "ctaid.y": 0, "ctaid.z": 0,
            "nctaid.x": L.grid, "nctaid.y": 1, "nctaid.z": 1,
            "laneid": hw, "warpid": w.tids[lane] // 32, "nwarpid": -(-L.block // 32),
            "lanemask_eq": 1 << hw, "lanemask_lt": (1 << hw) - 1, "lanemask_le": (2 << hw) - 1,
            "lanemask_gt": (0xFFFFFFFF << (hw + 1)) & 0xFFFFFFFF,
            "lanemask_ge": (0xFFFFFFFF << hw) & 0xFFFFFFFF,
        }
        return table[name] & 0xFFFFFFFF

    # --- memory ---------------------------------------------------------------------------------
    def _fault(self, msg: str, ins: Instr, w: WarpState, lane: int, block: Block) -> RuntimeFault:
        line = self.p.cuda_line_of.get(ins.line) if ins.line else None
        cuda = f", CUDA line {line}" if line else ""
        where = (f"thread {w.tids[lane]} of CTA {w.cta} (warp {w.warp}, lane {lane}), "
                 f"block B{block.index}, PTX line {ins.line}{cuda}, EXEC step {len(self.trace)}")
        return RuntimeFault(f"{msg}\n    at {where}", file=self.p.source_path or None, line=line)

    def _word(self, ins: Instr, w: WarpState, lane: int, block: Block) -> int:
        space, _, _ = ins.mod.partition(".")
        addr = (self._val(ins.srcs[0], w, lane) + self._val(ins.srcs[1], w, lane)) & 0xFFFFFFFF
        kind = {Op.LD: "read", Op.ST: "write", Op.ATOM: "atomic"}[ins.op]
        if addr % 4:
            raise self._fault(f"misaligned {space} {kind} of 4 bytes at address {addr:#x}", ins, w, lane, block)
        word = addr // 4
        if space == "local":
            n = self.layout.local_words
            if word >= n:
                raise self._fault(f"out-of-bounds local {kind} of 4 bytes at address {addr:#x} "
                                  f"(each thread has {n * 4} bytes of local memory)", ins, w, lane, block)
            return self.layout.local_base + self.thread_index[(w.warp, lane)] * n + word
        if space == "shared":
            n = self.layout.shared_words
            if word >= n:
                raise self._fault(f"out-of-bounds shared {kind} of 4 bytes at address {addr:#x} "
                                  f"(the CTA has {n * 4} bytes of shared memory)", ins, w, lane, block)
            return self.layout.shared_base[w.cta] + word
        n = self.layout.global_words
        if word >= n:
            arrays = ", ".join(f"{k} = {b * 4:#x}..{(b + ln) * 4 - 1:#x}" for k, (b, ln) in self.layout.arrays.items())
            raise self._fault(f"out-of-bounds global {kind} of 4 bytes at address {addr:#x} "
                              f"(arrays: {arrays or 'none'})", ins, w, lane, block)
        return word

    def _memory(self, ins: Instr, w: WarpState, on: list[int], block: Block, ev: ExecEvent,
                results: dict) -> None:
        words = {lane: self._word(ins, w, lane, block) for lane in on}
        if ins.op is Op.LD:
            for lane in on:
                results[lane] = self.memory[words[lane]]
                ev.mem_reads.append(words[lane])
            return
        if ins.op is Op.ST:
            values = {lane: self._val(ins.srcs[2], w, lane) for lane in on}
            for lane in on:  # same word from several lanes: the highest lane wins
                self.memory[words[lane]] = values[lane]
                ev.mem_writes.append((words[lane], values[lane]))
                ev.mem_write_src.append((ev.writers_run, lane))
            ev.writers_run += 1
            return
        _, _, aop = ins.mod.partition(".")
        for lane in on:
            old = self.memory[words[lane]]
            new = semantics.atomic(aop, old, self._val(ins.srcs[2], w, lane), self._val(ins.srcs[3], w, lane))
            self.memory[words[lane]] = new
            ev.mem_reads.append(words[lane])
            ev.mem_writes.append((words[lane], new))
            ev.mem_write_src.append((ev.writers_run, lane))
            results[lane] = old
        ev.writers_run += 1

    # --- cross-lane ----------------------------------------------------------------------------
    def _lane_of_hw(self, w: WarpState, lane: int, hw: int) -> int | None:
        """Our lane holding hardware lane ``hw`` of this thread's 32-lane warp, if it is in this warp."""
        tid = (w.tids[lane] & ~31) | hw
        for other in range(self.cfg.lanes):
            if w.tids[other] == tid and w.status[other] != ABSENT:
                return other
        return None

    def _thread_exists(self, w: WarpState, lane: int, hw: int) -> bool:
        return ((w.tids[lane] & ~31) | hw) < self.launch.block

    def _shfl(self, ins: Instr, w: WarpState, lanes: list[int], on: list[int], block: Block,
              results: dict, results2: dict) -> None:
        mode = ins.mod
        for lane in on:
            a, b, c, mask = (self._val(s, w, lane) for s in ins.srcs)
            hw = self._hw_lane(w, lane)
            if not (mask >> hw) & 1:
                raise self._fault(f"shfl.sync: lane {hw} is not in its member mask {mask:#x} "
                                  "(undefined on NVIDIA hardware)", ins, w, lane, block)
            bval, cval, seg = b & 31, c & 31, (c >> 8) & 31
            max_lane = (hw & seg) | (cval & ~seg & 31)
            min_lane = hw & seg
            if mode == "up":
                j, ok = hw - bval, hw - bval >= max_lane
            elif mode == "down":
                j, ok = hw + bval, hw + bval <= max_lane
            elif mode == "bfly":
                j, ok = hw ^ bval, (hw ^ bval) <= max_lane
            else:
                j = min_lane | (bval & ~seg & 31)
                ok = j <= max_lane
            if not ok:
                j = hw
            src = self._lane_of_hw(w, lane, j)
            if src is None:
                why = ("has no thread" if not self._thread_exists(w, lane, j)
                       else f"is in another {self.cfg.lanes}-lane warp of this machine")
                raise self._fault(f"shfl.sync.{mode}: source lane {j} {why}; "
                                  f"shuffles must stay within groups of {self.cfg.lanes} lanes (e.g. width {self.cfg.lanes})",
                                  ins, w, lane, block)
            if src not in lanes:
                raise self._fault(f"shfl.sync.{mode}: source lane {j} is not executing this shuffle "
                                  "(diverged or exited: undefined on NVIDIA hardware)", ins, w, lane, block)
            results[lane] = self._val(ins.srcs[0], w, src)
            if ins.dst2 is not None:
                results2[lane] = ok

    def _vote(self, ins: Instr, w: WarpState, lanes: list[int], on: list[int], block: Block,
              results: dict) -> None:
        if ins.mod == "active":
            self._activemask(ins, w, on, block, results)
            return
        for lane in on:
            mask = self._val(ins.srcs[1], w, lane)
            participants = []
            for hw in range(32):
                if not (mask >> hw) & 1 or not self._thread_exists(w, lane, hw):
                    continue
                other = self._lane_of_hw(w, lane, hw)
                if other is None:
                    raise self._fault(f"vote.sync.{ins.mod}: member mask {mask:#x} includes lane {hw}, "
                                      f"which is in another {self.cfg.lanes}-lane warp of this machine",
                                      ins, w, lane, block)
                if w.status[other] == EXITED:
                    continue
                if other not in lanes:
                    raise self._fault(f"vote.sync.{ins.mod}: lane {hw} of the member mask is not executing "
                                      "this vote (diverged: undefined on NVIDIA hardware)", ins, w, lane, block)
                participants.append((hw, other))
            vals = [(hw, w.preds[other][ins.srcs[0].n]) for hw, other in participants]
            if ins.mod == "any":
                results[lane] = any(v for _, v in vals)
            elif ins.mod == "all":
                results[lane] = all(v for _, v in vals)
            elif ins.mod == "uni":
                results[lane] = len({v for _, v in vals}) <= 1
            else:
                results[lane] = sum(1 << hw for hw, v in vals if v)

    def _activemask(self, ins: Instr, w: WarpState, on: list[int], block: Block, results: dict) -> None:
        """``__activemask()``: bit laneid of every lane executing it. Exact while the thread's
        32-lane group lives in this warp; other threads of the group elsewhere make it a fault."""
        mask = sum(1 << self._hw_lane(w, lane) for lane in on)
        for lane in on:
            for hw in range(32):
                other = self._lane_of_hw(w, lane, hw)
                if other is None and self._thread_exists(w, lane, hw) and not self._exited(w, lane, hw):
                    raise self._fault(f"__activemask: lane {hw} of this 32-lane warp is in another "
                                      f"{self.cfg.lanes}-lane warp of this machine", ins, w, lane, block)
            results[lane] = mask

    def _exited(self, w: WarpState, lane: int, hw: int) -> bool:
        tid = (w.tids[lane] & ~31) | hw
        return any(x.cta == w.cta and x.tids[k] == tid and x.status[k] == EXITED
                   for x in self.warps for k in range(self.cfg.lanes))


def run(program: Program, launch: Launch, cfg: MachineConfig | None = None, max_steps: int | None = None) -> Result:
    return Interpreter(program, launch, cfg, max_steps).run()
