"""The machine state the debugger shows: decoded from the model, and the interpreter's beside it.

``MachineState`` is what the model's DeltaNet state holds, read back by nearest codeword with
margins (engine/model.py); nothing here computes a machine value. ``RefState`` is the
reference interpreter's state at the same point of the launch, and ``compare`` lists where
the two differ and which model words decode with a low margin.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from compiler.circuit.protocol import Token, step_tokens, value_tokens
from compiler.machine.config import MachineConfig
from engine.interpreter import ABSENT, EXITED, Interpreter
from engine.model import EXIT, Word

UNWRITTEN = Word(0, 1.0, False)


@dataclass
class MachineState:
    """Registers, predicates, lane pcs and memory, one ``Word`` each (value, margin, written)."""

    regs: dict[int, list[list[Word]]]
    """warp -> [lane][register] (register 0 included: never written, reads 0)."""
    preds: dict[int, list[list[Word]]]
    """warp -> [lane][predicate] (value 0/1)."""
    pcs: dict[int, list[Word]]
    """warp -> [lane]: the block the lane runs next, ``EXIT`` (-1), or not written (no thread)."""
    memory: list[Word]

    @staticmethod
    def decode(run, warps: int) -> "MachineState":
        """Read the state of a ``ModelRun`` (engine/model.py decodes; this only arranges)."""
        cfg = run.gpu.machine
        regs, preds = {}, {}
        pcs_all = run.pcs()
        for w in range(warps):
            r = run.registers(warp=w)
            regs[w] = [[UNWRITTEN] + [r[(lane, k)] for k in range(1, cfg.regs)] for lane in range(cfg.lanes)]
            p = run.predicates(warp=w)
            preds[w] = [[p[(lane, k)] for k in range(cfg.preds)] for lane in range(cfg.lanes)]
        pcs = {w: [pcs_all[(w, lane)] for lane in range(cfg.lanes)] for w in range(warps)}
        return MachineState(regs, preds, pcs, run.memory())

    # --- the replay file's form -------------------------------------------------------------
    def to_json(self) -> dict:
        def enc(wd: Word):
            return [wd.value, round(wd.margin, 4)] if wd.written else None

        return {"regs": {str(w): [[enc(x) for x in lane[1:]] for lane in v] for w, v in self.regs.items()},
                "preds": {str(w): [[enc(x) for x in lane] for lane in v] for w, v in self.preds.items()},
                "pcs": {str(w): [enc(x) for x in v] for w, v in self.pcs.items()},
                "memory": [enc(x) for x in self.memory]}

    @staticmethod
    def from_json(d: dict) -> "MachineState":
        def dec(x) -> Word:
            if x is None:
                return UNWRITTEN
            value, margin = x
            if not isinstance(value, int) or not isinstance(margin, (int, float)):
                raise ValueError(f"bad word {x!r}")
            return Word(value, float(margin), True)

        return MachineState(
            regs={int(w): [[UNWRITTEN] + [dec(x) for x in lane] for lane in v] for w, v in d["regs"].items()},
            preds={int(w): [[dec(x) for x in lane] for lane in v] for w, v in d["preds"].items()},
            pcs={int(w): [dec(x) for x in v] for w, v in d["pcs"].items()},
            memory=[dec(x) for x in d["memory"]])

    def words(self):
        """Every (kind, warp, lane, index, Word), for margin checks."""
        for w, lanes in self.regs.items():
            for lane, row in enumerate(lanes):
                for r, wd in enumerate(row):
                    yield "reg", w, lane, r, wd
        for w, lanes in self.preds.items():
            for lane, row in enumerate(lanes):
                for p, wd in enumerate(row):
                    yield "pred", w, lane, p, wd
        for w, row in self.pcs.items():
            for lane, wd in enumerate(row):
                yield "pc", w, lane, None, wd
        for a, wd in enumerate(self.memory):
            yield "mem", None, None, a, wd


@dataclass
class RefState:
    """The interpreter's state: plain ints (unsigned 32-bit patterns)."""

    regs: dict[int, list[list[int]]]
    preds: dict[int, list[list[int]]]
    pcs: dict[int, list[int | None]]
    """warp -> [lane]: next block, ``EXIT`` (exited), None (no thread)."""
    status: dict[int, list[str]]
    memory: list[int]
    in_flight: set[tuple] = field(default_factory=set)
    """Entries whose record is only partly fed to the model: ("reg", w, lane, r) / ("mem", a)."""

    @staticmethod
    def of(interp: Interpreter) -> "RefState":
        regs, preds, pcs, status = {}, {}, {}, {}
        for ws in interp.warps:
            regs[ws.warp] = [list(row) for row in ws.regs]
            preds[ws.warp] = [[int(b) for b in row] for row in ws.preds]
            pcs[ws.warp] = [None if s == ABSENT else EXIT if s == EXITED else ws.pcs[lane]
                            for lane, s in enumerate(ws.status)]
            status[ws.warp] = list(ws.status)
        return RefState(regs, preds, pcs, status, list(interp.memory))

    def copy(self) -> "RefState":
        return RefState({w: [list(r) for r in v] for w, v in self.regs.items()},
                        {w: [list(r) for r in v] for w, v in self.preds.items()},
                        {w: list(v) for w, v in self.pcs.items()},
                        {w: list(v) for w, v in self.status.items()},
                        list(self.memory), set(self.in_flight))


def partial(before: RefState, after: RefState, ev, fed: int) -> RefState:
    """The interpreter's state as the model should hold it after the first ``fed`` tokens of
    EXEC step ``ev`` were fed to it: the EXEC token writes the lanes' next pcs (taken, like
    barrier releases, from ``after``), each record its value once its last token is in. A record
    whose value is only partly fed is ``in_flight`` (the model holds some of its bytes). The
    records are walked in the protocol's own order (``protocol.step_tokens``); tokens that
    carry no register, predicate or memory value (e.g. barrier releases) are passed over, and so
    is a register rewritten with the value it held (no record: ``before`` has it already)."""
    if fed <= 0:
        return before
    out = before.copy()
    out.pcs = {w: list(v) for w, v in after.pcs.items()}
    out.status = {w: list(v) for w, v in after.status.items()}
    w = ev.warp
    # the interpreter's registers before the step are what the model holds (temporaries are
    # restored after their block), so this gives the step's tokens as the trace has them
    held = {(w, lane, r): v for lane, row in enumerate(before.regs[w]) for r, v in enumerate(row)}
    toks = step_tokens(ev, held)
    stores = iter(ev.mem_writes)
    i, reg = 1, 0
    while i < len(toks):
        tok = Token.parse(toks[i])
        if tok.kind == "R":  # the address: the lane values that follow are the records
            reg = tok.args[0]
            i += 1
            continue
        if tok.kind in ("S", "B0") and tok.lane is not None:  # a lane value of register ``reg``
            lane = tok.lane
            v = ev.reg_writes[lane][reg]
            n = len(value_tokens(v))
            key, apply = ("reg", w, lane, reg), lambda lane=lane, r=reg, v=v: out.regs[w][lane].__setitem__(r, v)
        elif tok.kind == "P":
            lane, p = tok.lane, tok.args[0]
            n = 1
            v = int(ev.pred_writes[lane][p])
            key, apply = ("pred", w, lane, p), lambda lane=lane, p=p, v=v: out.preds[w][lane].__setitem__(p, v)
        elif tok.kind == "M":
            a, v = next(stores)
            n = 1 + len(value_tokens(v))
            key, apply = ("mem", a), lambda a=a, v=v: out.memory.__setitem__(a, v & 0xFFFFFFFF)
        else:
            i += 1
            continue
        if i + n <= fed:
            apply()
        elif i < fed:
            out.in_flight.add(key)
        i += n
    return out


@dataclass(frozen=True)
class Mismatch:
    """One entry where the model's decoded state and the interpreter's differ."""

    kind: str  # reg, pred, pc, mem
    where: str
    model: str
    interp: str
    warp: int | None = None
    lane: int | None = None
    index: int | None = None


@dataclass(frozen=True)
class LowMargin:
    kind: str
    where: str
    margin: float
    warp: int | None = None
    lane: int | None = None
    index: int | None = None


def pc_text(pc: int | None) -> str:
    return "none" if pc is None else "exit" if pc == EXIT else f"B{pc}"


def word_pc(wd: Word) -> int | None:
    return wd.value if wd.written else None


def compare(model: MachineState, ref: RefState, cfg: MachineConfig, owner=lambda a: f"word {a}"
            ) -> list[Mismatch]:
    """Every entry where the model and the interpreter differ (records in flight excluded)."""
    out: list[Mismatch] = []
    for w in sorted(ref.regs):
        for lane in range(cfg.lanes):
            if ref.pcs[w][lane] is None:
                continue  # no thread: nothing to compare
            for r in range(1, cfg.regs):
                m, want = model.regs[w][lane][r].value, ref.regs[w][lane][r]
                if m != want and ("reg", w, lane, r) not in ref.in_flight:
                    out.append(Mismatch("reg", f"w{w} l{lane} r{r}", str(m), str(want), w, lane, r))
            for p in range(cfg.preds):
                m, want = model.preds[w][lane][p].value, ref.preds[w][lane][p]
                if m != want:
                    out.append(Mismatch("pred", f"w{w} l{lane} p{p}", str(m), str(want), w, lane, p))
    for w in sorted(ref.pcs):
        for lane in range(cfg.lanes):
            m, want = word_pc(model.pcs[w][lane]), ref.pcs[w][lane]
            if m != want:
                out.append(Mismatch("pc", f"w{w} l{lane} pc", pc_text(m), pc_text(want), w, lane, None))
    for a, want in enumerate(ref.memory):
        m = model.memory[a].value
        if m != want and ("mem", a) not in ref.in_flight:
            out.append(Mismatch("mem", f"{owner(a)} (word {a})", str(m), str(want), None, None, a))
    return out


def low_margins(model: MachineState, owner=lambda a: f"word {a}") -> list[LowMargin]:
    """Every model word whose margin is below ``engine.model.MARGIN`` (a corrupt codeword)."""
    return [LowMargin(kind, _where(kind, w, lane, i, owner), wd.margin, w, lane, i)
            for kind, w, lane, i, wd in model.words() if not wd.ok]


def _where(kind: str, w, lane, i, owner) -> str:
    if kind == "mem":
        return f"{owner(i)} (word {i})"
    name = {"reg": f"r{i}", "pred": f"p{i}", "pc": "pc"}[kind]
    return f"w{w} l{lane} {name}"
