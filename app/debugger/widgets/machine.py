"""Middle region: the warp scheduler table and the focused warp's registers, all lanes at once."""

from __future__ import annotations

import textwrap

from rich.text import Text

from engine.model import EXIT, Word
from app.debugger.session import Frame
from app.debugger.widgets.base import Pane, fmt, lanes_list, mask_text

LOW = "bold white on red"
MISMATCH = "bold red"
CHANGED = "bold yellow"


def pc_word(wd: Word) -> str:
    if not wd.written:
        return "--"
    return "ex" if wd.value == EXIT else f"B{wd.value}"


def lane_pcs(f: Frame, w: int) -> list[int | None]:
    """Decoded next block per lane (EXIT, or None: no thread)."""
    return [wd.value if wd.written else None for wd in f.state.pcs[w]]


def divergent_mask(f: Frame, w: int) -> int:
    """Lanes not at the warp's lowest block (cuda-gdb's divergent mask), from the decoded pcs."""
    pcs = lane_pcs(f, w)
    live = [pc for pc in pcs if pc is not None and pc != EXIT]
    if not live:
        return 0
    low = min(live)
    return sum(1 << i for i, pc in enumerate(pcs) if pc is not None and pc != EXIT and pc != low)


def explain(f: Frame) -> str:
    """Which lanes the current step runs and why the others wait (from the EXEC token and the
    decoded pcs of the lanes that did not run)."""
    if f.step is None:
        return "at the launch"
    if f.done:
        return "every thread has exited (END)"
    s = f.step
    lanes = f.kernel.cfg.lanes
    head = (f"EXEC #{s.index}: B{s.block} for warp {s.warp} (CTA {f.kernel.cta_of(s.warp)}), "
            f"lane{'s' * (bin(s.mask).count('1') != 1)} {lanes_list(s.mask, lanes)} active")
    why: dict[str, list[int]] = {}
    blocks = f.kernel.program.blocks
    for lane, wd in enumerate(f.state.pcs.get(s.warp, [])):
        if s.mask >> lane & 1:
            continue
        status = f.ref.status[s.warp][lane] if f.ref and s.warp in f.ref.status else ""
        if not wd.written:
            reason = "hold no thread"
        elif wd.value == EXIT:
            reason = "exited"
        elif status == "barrier":
            reason = "wait at a barrier (interpreter)"
        elif wd.value == s.block and getattr(blocks[s.block], "serial", False):
            reason = f"wait their turn in serial block B{s.block} (one lane at a time)"
        elif getattr(blocks[s.block], "serial", False) and getattr(blocks[wd.value], "serial", False):
            reason = f"wait their turn at serial block B{wd.value} (one lane at a time)"
        elif wd.value > s.block:
            reason = f"wait at B{wd.value} (diverged: a higher block runs later)"
        else:
            reason = f"are at B{wd.value}"
        why.setdefault(reason, []).append(lane)
    if not why:
        return head + "; the warp is converged"
    parts = [f"lane{'s' * (len(ls) != 1)} {','.join(map(str, ls))} {reason if len(ls) != 1 else _singular(reason)}"
             for reason, ls in why.items()]
    return head + "; " + "; ".join(parts)


def _singular(reason: str) -> str:
    return (reason.replace("hold no", "holds no").replace("wait at", "waits at").replace("are at", "is at")
            .replace("wait their", "waits its"))


class WarpTable(Pane):
    TITLE = "warps"
    ID, ROW, ORDER, WIDTH, PAGES = "warps", "row-b", 0, "38", ("machine",)
    HELP = ("The warp scheduler, like cuda-gdb's 'info cuda warps': per warp its CTA, each lane's next "
            "block decoded from the model's pc file (ex = exited, -- = no thread), the active mask of "
            "the current EXEC, the divergent mask (lanes not at the warp's lowest block) and what the "
            "warp is doing. Barrier waits come from the interpreter (the pc file holds no barrier state).")

    def draw(self, f: Frame, height: int, width: int) -> Text:
        cfg = f.kernel.cfg
        out = Text(no_wrap=True, overflow="crop")
        out.append("warp c " + "".join(f"l{i} " for i in range(cfg.lanes)) + "act  div  state\n", style="dim")
        for w in range(f.kernel.warps):
            focused = w == self.warp
            row = Text()
            row.append(f"{'▸' if focused else ' '}w{w:<2} {f.kernel.cta_of(w)} ", style="bold" if focused else "")
            for lane, wd in enumerate(f.state.pcs[w]):
                st = LOW if not wd.ok else ("reverse" if focused and lane == self.lane else "")
                mism = any(m.kind == "pc" and m.warp == w and m.lane == lane for m in f.mismatches)
                row.append(f"{pc_word(wd):<3}", style=MISMATCH if mism and not st else st)
            cur = f.step is not None and f.step.warp == w and not f.done
            act = f.step.mask if cur else 0
            row.append(f"{mask_text(act, cfg.lanes)} ", style="bold green" if cur else "dim")
            div = divergent_mask(f, w)
            row.append(f"{mask_text(div, cfg.lanes)} ", style="bold magenta" if div else "dim")
            pcs = lane_pcs(f, w)
            bar = f.ref is not None and "barrier" in f.ref.status.get(w, [])
            if all(pc in (None, EXIT) for pc in pcs):
                state = "exit"
            elif cur:
                state = f"runs B{f.step.block}"
            elif bar:
                state = "barrierⁱ"
            else:
                state = "waits"
            row.append(state, style="bold green" if cur else "")
            out.append_text(row)
            out.append("\n")
        legend = ["pcs from the model's pc file", "ex exited  -- no thread", "act: lanes of this EXEC",
                  "div: not at the lowest block", "ⁱ from the interpreter"]
        room = height - f.kernel.warps - 1
        why = textwrap.wrap(explain(f), max(20, width - 1))
        if room >= len(legend) + 1 + len(why):
            out.append("\n".join(legend) + "\n\n", style="dim")
            out.append("\n".join(why), style="green")
        else:
            out.append("\n".join(legend[:max(0, room)]), style="dim")
        return out


class RegistersPane(Pane):
    TITLE = "registers"
    ID, ROW, ORDER, WIDTH, PAGES = "registers", "row-b", 1, "48", ("machine",)
    HELP = ("The focused warp's registers and predicates, all four lanes side by side, decoded from the "
            "model's register and predicate files. Yellow: changed since the previous stop; red: differs "
            "from the interpreter; white on red: decoded with a low margin (corrupt codeword). "
            "x toggles hex/decimal; w/l move the focus.")

    def title_for(self, f: Frame) -> str:
        return f"registers · warp {self.warp} (CTA {f.kernel.cta_of(self.warp)})"

    def watch_warp(self, w: int) -> None:
        if self.frame is not None:
            self.border_title = self.title_for(self.frame)

    def draw(self, f: Frame, height: int, width: int) -> Text:
        cfg = f.kernel.cfg
        w = min(self.warp, f.kernel.warps - 1)
        col = max(6, (width - 4) // cfg.lanes)
        out = Text(no_wrap=True, overflow="crop")
        out.append("    ")
        active = f.step.mask if f.step and f.step.warp == w and not f.done else 0
        for lane in range(cfg.lanes):
            style = "reverse bold" if lane == self.lane else ("bold green" if active >> lane & 1 else "dim")
            label = f"lane {lane}" + ("*" if active >> lane & 1 else "")
            out.append(f"{label:>{col - 1}}", style=style)
            out.append(" ")
        out.append("\n")
        mism = {(m.kind, m.lane, m.index): m for m in f.mismatches if m.warp == w}
        nregs = max(1, f.kernel.program.regs_used)
        rows = list(range(1, min(cfg.regs, nregs + 1)))
        room = height - 3
        shown = rows[:room] if len(rows) > room else rows
        for r in shown:
            out.append(f"r{r:<3}", style="dim")
            for lane in range(cfg.lanes):
                out.append_text(self._cell(f, w, lane, ("reg", w, lane, r), f.state.regs[w][lane][r],
                                           mism.get(("reg", lane, r)), col))
            out.append("\n")
        if len(shown) < len(rows):
            out.append(f"  … r{shown[-1] + 1}-r{rows[-1]} below (taller terminal or page 2)\n", style="dim")
        out.append("p   ", style="dim")
        for lane in range(cfg.lanes):
            cell = Text()
            for p in range(cfg.preds):
                wd = f.state.preds[w][lane][p]
                st = LOW if not wd.ok else MISMATCH if ("pred", lane, p) in mism else \
                    CHANGED if ("pred", w, lane, p) in f.changed else ""
                cell.append(str(wd.value), style=st)
            cell.pad_left(col - 1 - len(cell.plain))
            out.append_text(cell)
            out.append(" ")
        return out

    def _cell(self, f: Frame, w: int, lane: int, key, wd: Word, m, col: int) -> Text:
        present = f.state.pcs[w][lane].written
        if not present:
            text, st = "--", "dim"
        else:
            text = fmt(wd.value, self.hex)[2:] if self.hex else fmt(wd.value, False)
            if len(text) > col - 1:
                text = f"{wd.value & 0xFFFFFFFF:08x}"
            st = LOW if not wd.ok else MISMATCH if m else CHANGED if key in f.changed else \
                ("dim" if not wd.written else "")
        if lane == self.lane:
            st = (st + " underline").strip()
        return Text(f"{text:>{col - 1}} ", style=st)
