"""Bottom region: the memory heat map, the token stream and the interpreter diff."""

from __future__ import annotations

from rich.text import Text
from textual.reactive import reactive

from compiler.circuit.protocol import is_exec
from app.debugger.session import Frame
from app.debugger.widgets.base import Pane, fmt, window

LOW_LOGIT = 8.0
"""A token whose logit beats the runner-up by less than this is flagged (clean tokens: ~32)."""
PER_ROW = 16


class MemoryPane(Pane):
    TITLE = "memory"
    ID, ROW, ORDER, WIDTH, PAGES = "memory", "row-c", 0, "40", ("memory",)
    HELP = ("The machine's 126 memory words, 16 per row. Heat: red = written by this EXEC step, orange "
            "= in the last 3 steps, yellow = earlier (writes from the model's M records); cyan/blue = "
            "read by this step / earlier (reads leave no token: from the interpreter). ! = differs "
            "from the interpreter, ? = low margin, · = a word of an array, blank = unused; reversed: "
            "a watched word (watch out[3]). m shows the values, per array.")

    values: reactive[bool] = reactive(False)

    def title_for(self, f: Frame) -> str:
        return "memory · values" if self.values else "memory · heat map"

    def watch_values(self, v: bool) -> None:
        if self.frame is not None:
            self.border_title = self.title_for(self.frame)

    def draw(self, f: Frame, height: int, width: int) -> Text:
        return self._values(f, width) if self.values else self._heat(f)

    def _heat(self, f: Frame) -> Text:
        layout = f.kernel.launch.layout
        now = f.step.index if f.step else -1
        bad = {m.index for m in f.mismatches if m.kind == "mem"}
        low = {m.index for m in f.lows if m.kind == "mem"}
        watched = f.breakpoints.watched_words() if f.breakpoints else set()
        used = layout.total_words
        out = Text(no_wrap=True, overflow="crop")
        n = f.kernel.cfg.mem_words
        for row in range(0, n, PER_ROW):
            out.append(f"{row:>3} ", style="dim")
            for a in range(row, min(n, row + PER_ROW)):
                ch, st = ("·", "dim") if a < used else (" ", "")
                if a in f.last_read:
                    age = now - f.last_read[a]
                    ch, st = "▪", "bold cyan" if age <= 0 else "blue"
                if a in f.last_write:
                    age = now - f.last_write[a]
                    ch, st = "■", "bold red" if age <= 0 else "#ff8c00" if age <= 3 else "yellow"
                if a in low:
                    ch, st = "?", "bold white on red"
                elif a in bad:
                    ch, st = "!", "bold white on red"
                if a in watched:
                    ch, st = ch if ch.strip() else "·", f"{st} underline reverse".strip()
                out.append(ch + " ", style=st)
            out.append("\n")
        out.append("■ written ▪ read (interp) ! ≠ interp ? low margin" + (" ▮ watched" if watched else ""),
                   style="dim")
        return out

    def _values(self, f: Frame, width: int) -> Text:
        layout = f.kernel.launch.layout
        mem = f.state.memory
        regions = [(name, base, n) for name, (base, n) in layout.arrays.items()]
        for cta, base in enumerate(layout.shared_base):
            if layout.shared_words:
                regions.append((f"shared{cta}", base, layout.shared_words))
        if layout.local_words:
            regions.append(("local", layout.local_base, layout.local_words * layout.threads))
        out = Text(no_wrap=False)
        now = f.step.index if f.step else -1
        bad = {m.index for m in f.mismatches if m.kind == "mem"}
        watched = f.breakpoints.watched_words() if f.breakpoints else set()
        for name, base, n in regions:
            out.append(f"{name}@{base}:", style="bold")
            for a in range(base, base + n):
                wd = mem[a]
                st = "bold white on red" if (not wd.ok or a in bad) else \
                    "bold red" if f.last_write.get(a, -9) == now else ""
                if a in watched:
                    st = f"{st} underline".strip()
                out.append(" ")
                out.append(fmt(wd.value, self.hex), style=st)
            out.append("\n")
        out.rstrip()
        return out


class TokenPane(Pane):
    TITLE = "tokens"
    ID, ROW, ORDER, WIDTH, PAGES = "tokens", "row-c", 1, "1fr", ("trace",)
    HELP = ("The token stream the model generated, numbered from 0 (token 0 is the first EXEC; the "
            "prompt is fed in the first pass). EXEC tokens carry their EXEC step number (#n, from 0). "
            "Red: the token differs from the interpreter's trace; m= flags a token chosen by a logit "
            "margin below 8 (clean: ~32). The grey line is the interpreter's next token.")

    def title_for(self, f: Frame) -> str:
        return f"tokens from 0 · prompt {f.prompt_len}"

    def draw(self, f: Frame, height: int, width: int) -> Text:
        out = Text(no_wrap=True, overflow="crop")
        n = len(f.tokens)
        show = window(n + 1, n, height)  # the last row is the interpreter's next token
        step = -1
        for i in range(0, show.start):
            step += is_exec(f.tokens[i])
        for i in show:
            if i == n:
                if f.done:
                    out.append("      (launch ended)", style="dim")
                elif f.expected_next is not None:
                    out.append(f"{n:>5}  next (interp): {f.expected_next}", style="dim italic")
                continue
            tok = f.tokens[i]
            exec_tok = is_exec(tok)
            step += exec_tok
            cur = i == n - 1
            departs = f.departure is not None and i >= f.departure
            line = Text()
            line.append("▶" if cur else " ", style="bold yellow")
            line.append(f"{i:>4}  ", style="dim")
            line.append(tok, style=("bold red" if departs else "bold" if exec_tok else ""))
            if exec_tok:
                line.append(f"  #{step}", style="cyan")
            if f.departure == i and f.expected is not None:
                line.append(f"  ≠ interp {f.expected}", style="bold red")
            if f.margins[i] < LOW_LOGIT:
                line.append(f"  m={f.margins[i]:.1f}", style="bold white on red")
            if cur:
                line.stylize("on #2c3550")
            out.append_text(line)
            out.append("\n")
        out.rstrip()
        return out


class DiffPane(Pane):
    TITLE = "diff: model vs interpreter"
    ID, ROW, ORDER, WIDTH, PAGES = "diff", "row-c", 2, "46", ("memory", "trace", "probe")
    DEFAULT_CSS = "DiffPane { text-wrap: wrap; }"
    HELP = ("The model's decoded state against the reference interpreter's at the same point of the "
            "launch: the interpreter's state before this EXEC step plus the records of the step fed so "
            "far (a value fed only in part is skipped). Every register, predicate and pc of every warp "
            "and all 126 memory words are compared; mismatches are red, words decoded with a low margin "
            "white on red. The first token where the model departs from the interpreter's trace is shown "
            "at the top.")

    def title_for(self, f: Frame) -> str:
        bad = len(f.mismatches) + len(f.lows) + (f.departure is not None)
        if bad:
            return f"diff: model vs interpreter · {bad} PROBLEM{'S' * (bad != 1)}"
        return "diff: model vs interpreter" + (" · fault injected" if f.injected else " · equal")

    def draw(self, f: Frame, height: int, width: int) -> Text:
        out = Text(no_wrap=False)
        if f.done:
            out.append(f"at the end of the launch (token {f.pos - 1} = END): final state\n", style="dim")
        elif f.step is not None:
            fed = max(0, f.pos - 1 - f.step.pos)
            out.append(f"at token {f.pos - 1}: EXEC #{f.step.index}, {fed} of its tokens fed\n", style="dim")
        if f.departure is not None:
            out.append(f"TOKEN {f.departure}: model {f.tokens[f.departure]} ≠ interp {f.expected}\n",
                       style="bold white on red")
        if f.fault:
            out.append(f"interpreter: {f.fault}\n", style="bold red")
        for text in f.injected:
            out.append(f"injected into the model only: {text}\n", style="bold magenta")
        if f.ref is None:
            out.append("no interpreter state to compare at this point\n", style="yellow")
        for m in f.mismatches:
            out.append(f"≠ {m.where}: model {self._v(m.kind, m.model)} interp {self._v(m.kind, m.interp)}\n",
                       style="bold red")
        for lw in f.lows:
            out.append(f"? {lw.where}: margin {lw.margin:.2f} (low)\n", style="bold white on red")
        if f.ref is not None and not f.mismatches and not f.lows:
            w = f.kernel.warps
            what = f"registers, predicates and pcs of {w} warp{'s' * (w != 1)}, {f.kernel.cfg.mem_words} memory words"
            if f.departure is not None or f.fault or f.injected:  # never "equal" beside a departure
                out.append(f"the decoded state matches ({what}), but "
                           f"{'a fault was injected' if f.injected and f.departure is None else 'the launch departs'} "
                           "(above)\n",
                           style="bold yellow")
            else:
                out.append(f"✓ equal: {what}\n", style="bold green")
        lines = out.split("\n")
        if len(lines) > height:
            keep = Text("\n").join(lines[:height - 1])
            keep.append(f"\n… {len(lines) - height + 1} more", style="bold red")
            return keep
        out.rstrip()
        return out

    def _v(self, kind: str, text: str) -> str:
        if kind in ("reg", "mem") and text.lstrip("-").isdigit():
            return fmt(int(text), self.hex)
        return text
