"""Virtual registers -> the machine's registers (r1..r15, p0..p3), by liveness.

Builds an interference graph from per-instruction liveness, colours it
Chaitin/Briggs-style (simplify, optimistic push, biased select so that both ends
of a move share a register and the move disappears), and reports the program
point of highest pressure when a kernel needs more registers than a lane has.
There is no spilling: the 126-word memory is too small to spend on it.
"""

from __future__ import annotations

from collections import Counter, defaultdict

from compiler.cfg import VProgram
from compiler.errors import CompileError
from compiler.machine.config import MachineConfig
from compiler.machine.isa import Guard, Instr, Op, Pred, Reg
from compiler.spill import spill, spill_cost, spill_predicate

Var = Reg | Pred


class RegisterPressure(CompileError):
    """More values alive at once than the lane has registers (or predicates)."""


def _virtual(v: object) -> bool:
    return isinstance(v, (Reg, Pred)) and isinstance(v.n, str)


def physical(v: object) -> bool:
    return isinstance(v, Pred) or (isinstance(v, Reg) and v.n != 0)


def _defs(ins: Instr, tracked=_virtual) -> list[Var]:
    return [d for d in ins.regs_written() if tracked(d)]


def _reads(ins: Instr, tracked=_virtual) -> list[Var]:
    return [v for v in ins.regs_read() if tracked(v)]


def _complement(a: Guard, b: Guard) -> bool:
    return a.pred == b.pred and a.negate != b.negate


def scan_block(b, live_after_block: set[Var], tracked=_virtual) -> tuple[set[Var], list[set[Var]]]:
    """Backward liveness through one block: (live-in, live-after of each instruction).

    A guarded write leaves the old value in lanes where its guard fails, so the
    old value stays live, unless
    * nothing reads the register afterwards;
    * every later read carries the same guard (same predicate, not rewritten in
      between): only lanes that made the write read it, as in if-converted code; or
    * the next write carries the complementary guard (``@p`` then ``@!p``), and
      the two together overwrite every lane.
    """
    live = set(live_after_block)
    readers: dict[Var, Guard | None] = {v: None for v in live}  # guard shared by all later reads
    pending: dict[Var, Guard] = {}  # var -> guard of a later write it is kept live for
    after: list[set[Var]] = [set()] * len(b.instrs)
    for i in range(len(b.instrs) - 1, -1, -1):
        ins = b.instrs[i]
        after[i] = set(live)
        g = ins.guard
        for d in _defs(ins, tracked):
            if g is None or (d in pending and _complement(pending[d], g)) or (d in live and readers.get(d) == g):
                live.discard(d)
                pending.pop(d, None)
                readers.pop(d, None)
            elif d in live:
                pending.setdefault(d, g)
                readers[d] = None  # the old value is read by this write, in the other lanes
        for d in ins.regs_written():
            if isinstance(d, Pred):  # a guard predicate rewritten: its lanes change here
                pending = {v: pg for v, pg in pending.items() if pg.pred != d}
                readers = {v: (rg if rg is None or rg.pred != d else None) for v, rg in readers.items()}
        for v in _reads(ins, tracked):
            guard = None if g is None or v == g.pred else g
            readers[v] = guard if v not in live or readers.get(v) == guard else None
            live.add(v)
            pending.pop(v, None)
    return live, after


def liveness(prog: VProgram, tracked=_virtual) -> dict[str, set[Var]]:
    """Live-in set of every block (of virtual registers, or with ``tracked=physical`` machine ones)."""
    live_in: dict[str, set[Var]] = {b.label: set() for b in prog.blocks}
    changed = True
    while changed:
        changed = False
        for b in reversed(prog.blocks):
            live, _ = scan_block(b, live_out(b, live_in, tracked), tracked)
            if live != live_in[b.label]:
                live_in[b.label] = live
                changed = True
    return live_in


def live_out(b, live_in: dict[str, set[Var]], tracked=_virtual) -> set[Var]:
    """What is live when ``b``'s terminator runs (its successors' live-ins and its guard)."""
    live: set[Var] = set()
    for s in b.succs():
        live |= live_in.get(s, set())
    g: Guard | None = getattr(b.term, "guard", None)
    if g is not None and tracked(g.pred):
        live.add(g.pred)
    return live


def live_after_each(b, live_in: dict[str, set[Var]], tracked=_virtual) -> list[set[Var]]:
    """``out[i]``: what is live right after instruction i of block ``b``."""
    return scan_block(b, live_out(b, live_in, tracked), tracked)[1]


MAX_SPILLS = 24


def allocate(prog: VProgram, cfg: MachineConfig, filename: str,
             spill_at: int | None = None) -> tuple[VProgram, int, int, int]:
    """Rewrite ``prog`` onto physical registers: (program, regs used, preds used, spill words).

    With ``spill_at`` (a byte offset in the thread's local memory), values that do
    not fit are spilled there, one word each, until the rest do.
    """
    spills = pred_spills = 0
    while True:
        try:
            out, regs, preds = _allocate(prog, cfg, filename)
            return out, regs, preds, spills
        except _Uncoloured as failed:
            if spill_at is None or spills + pred_spills >= MAX_SPILLS:
                raise failed.error from None
            # spill a value alive where pressure peaks, alive long and used little
            cost = spill_cost(prog)
            candidates = [v for v in failed.peak if isinstance(v, failed.kind) and isinstance(v.n, str)
                          and not v.n.startswith("spill") and cost[v]]
            if not candidates:
                raise failed.error from None
            span = failed.span
            var = max(candidates, key=lambda v: (span[v] / cost[v], str(v)))
            if failed.kind is Reg:
                spill(prog, var, spill_at + 4 * spills, f"spill{spills}")
                spills += 1
            else:
                spill_predicate(prog, var, f"spillp{pred_spills}")
                pred_spills += 1


class _Uncoloured(Exception):
    def __init__(self, kind: type, error: RegisterPressure, peak: set, span: Counter):
        self.kind, self.error = kind, error
        self.peak = peak
        """Values alive where pressure of this kind is highest."""
        self.span = span
        """Instructions each value is alive across."""


def _allocate(prog: VProgram, cfg: MachineConfig, filename: str) -> tuple[VProgram, int, int]:
    live_in = liveness(prog)
    edges: dict[Var, set[Var]] = defaultdict(set)
    moves: dict[Var, set[Var]] = defaultdict(set)
    nodes: set[Var] = set()
    pressure: list[tuple[int, int | None, str]] = []  # (live regs, ptx line, kind)
    span: Counter = Counter()
    peak: dict[type, set] = {Reg: set(), Pred: set()}
    peak_count: dict[type, int] = {Reg: -1, Pred: -1}

    def interfere(a: Var, b: Var) -> None:
        if a != b and type(a) is type(b):
            edges[a].add(b)
            edges[b].add(a)

    for b in prog.blocks:
        live_b, after = scan_block(b, live_out(b, live_in))
        nodes |= live_b
        for ins, live in zip(b.instrs, after):
            defs = _defs(ins)
            nodes |= live | set(defs) | set(_reads(ins))
            skip = set()
            if ins.op in (Op.MOV, Op.PMOV) and _virtual(ins.srcs[0]) and ins.guard is None:
                skip = {ins.srcs[0]}
                moves[ins.dst].add(ins.srcs[0])
                moves[ins.srcs[0]].add(ins.dst)
            for d in defs:
                for v in live - skip:
                    interfere(d, v)
            if len(defs) == 2:
                interfere(defs[0], defs[1])
            busy = live | set(defs)
            span.update(busy)
            nreg, npred = sum(1 for v in busy if isinstance(v, Reg)), sum(1 for v in busy if isinstance(v, Pred))
            pressure.append((nreg, ins.line, "reg"))
            pressure.append((npred, ins.line, "pred"))
            for kind, n in ((Reg, nreg), (Pred, npred)):
                if n > peak_count[kind]:
                    peak_count[kind], peak[kind] = n, busy

    colours: dict[Var, int] = {}
    for kind, k, first in ((Reg, cfg.usable_regs, 1), (Pred, cfg.preds, 0)):
        group = [n for n in nodes if isinstance(n, kind)]
        ok = _colour(group, edges, moves, k, first, colours)
        if not ok:
            worst = max((p for p in pressure if p[2] == ("reg" if kind is Reg else "pred")),
                        key=lambda p: p[0], default=(0, None, ""))
            what = "registers" if kind is Reg else "predicate registers"
            raise _Uncoloured(kind, RegisterPressure(
                f"the kernel needs more {what} than a lane has ({k}); "
                f"{worst[0]} values are live at once around this PTX line",
                file=filename, line=worst[1],
                detail="Simplify the kernel: fewer values alive at the same time "
                       "(e.g. add '#pragma unroll 1' to unrolled loops)."), peak[kind], span)
    out = []
    for b in prog.blocks:
        instrs = []
        for ins in b.instrs:
            new = _rewrite(ins, colours)
            if new.op in (Op.MOV, Op.PMOV) and new.guard is None and new.dst == new.srcs[0]:
                continue  # coalesced move
            instrs.append(new)
        b.instrs = instrs
        b.term = _rewrite_term(b.term, colours)
        out.append(b)
    regs_used = max([c for v, c in colours.items() if isinstance(v, Reg)], default=0)
    preds_used = 1 + max([c for v, c in colours.items() if isinstance(v, Pred)], default=-1)
    return VProgram(out), regs_used, preds_used


def _colour(group: list[Var], edges, moves, k: int, first: int, colours: dict[Var, int]) -> bool:
    remaining = set(group)
    stack: list[Var] = []
    degree = {n: len(edges[n] & remaining) for n in remaining}
    order = sorted(remaining, key=str)
    while remaining:
        low = [n for n in order if n in remaining and degree[n] < k]
        pick = low[0] if low else max((n for n in order if n in remaining), key=lambda n: degree[n])
        stack.append(pick)
        remaining.discard(pick)
        for m in edges[pick]:
            if m in remaining:
                degree[m] -= 1
    ok = True
    while stack:
        n = stack.pop()
        taken = {colours[m] for m in edges[n] if m in colours}
        free = [c for c in range(first, first + k) if c not in taken]
        if not free:
            ok = False
            continue
        preferred = [colours[m] for m in moves.get(n, ()) if m in colours and colours[m] in free]
        colours[n] = preferred[0] if preferred else free[0]
    return ok


def _sub(v, colours):
    if _virtual(v):
        return type(v)(colours[v])
    return v


def _rewrite(ins: Instr, colours) -> Instr:
    guard = Guard(_sub(ins.guard.pred, colours), ins.guard.negate) if ins.guard else None
    return Instr(ins.op, _sub(ins.dst, colours) if ins.dst is not None else None,
                 tuple(_sub(s, colours) for s in ins.srcs), ins.mod, guard,
                 _sub(ins.dst2, colours) if ins.dst2 is not None else None, ins.line)


def _rewrite_term(term, colours):
    g = getattr(term, "guard", None)
    if g is None:
        return term
    from dataclasses import replace

    return replace(term, guard=Guard(_sub(g.pred, colours), g.negate))
