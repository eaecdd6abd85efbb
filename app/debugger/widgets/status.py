"""Top lines: focus and position, why the session stopped, which lanes run; alerts; page tabs."""

from __future__ import annotations

from rich.text import Text
from textual.reactive import reactive
from textual.widget import Widget
from textual.widgets import Static

from app.debugger.pages import PAGES
from app.debugger.session import Frame
from app.debugger.widgets.machine import explain


class StatusBar(Widget):
    """Always visible: the focus (CTA, warp, lane), the position, the stop reason, the lanes of the
    current step and why the others wait, and one alert line (engine running, mismatches, errors)."""

    DEFAULT_CSS = "StatusBar { height: 4; padding: 0 1; background: $boost; text-wrap: nowrap; text-overflow: ellipsis; }"

    frame: reactive[Frame | None] = reactive(None)
    warp: reactive[int] = reactive(0)
    lane: reactive[int] = reactive(0)
    hex: reactive[bool] = reactive(False)
    busy: reactive[str] = reactive("")
    follow: reactive[bool] = reactive(True)
    message: reactive[str] = reactive("")
    error: reactive[str] = reactive("")

    def render(self) -> Text:
        f = self.frame
        if f is None:
            return Text("qgpu-debug: starting…\n\n\n" + (self.busy or self.message), style="yellow")
        line1 = Text()
        line1.append(f"focus CTA {f.kernel.cta_of(self.warp)} · warp {self.warp} · lane {self.lane}",
                     style="bold reverse")
        line1.append(f" {'(follows the EXEC)' if self.follow else '(pinned)'} │ {'hex' if self.hex else 'dec'} │ ")
        line1.append(f"{f.kernel.name} │ {f.backend}", style="bold")
        line2 = Text()
        tok = f.tokens[-1] if f.tokens else "-"
        line2.append(f"pass {f.pos} · token {f.pos - 1} = ", style="bold")
        line2.append(tok, style="bold cyan")
        if f.step:
            line2.append(f" · EXEC #{f.step.index}", style="bold")
        line2.append(f" │ {f.stop.text}")
        line3 = Text(explain(f), style="green")
        out = Text("\n").join([line1, line2, line3, self._alert(f)])
        return out

    def _alert(self, f: Frame) -> Text:
        if self.busy:
            return Text(f"⏳ {self.busy} (esc interrupts)", style="bold yellow")
        if self.error:
            return Text(f"✗ reload failed, the session goes on with the previous build: {self.error}",
                        style="bold white on red")
        problems = []
        if f.departure is not None:
            problems.append(f"MODEL DEPARTS FROM THE INTERPRETER at token {f.departure}")
        if f.mismatches:
            problems.append(f"{len(f.mismatches)} state mismatch{'es' * (len(f.mismatches) != 1)}")
        if f.lows:
            problems.append(f"{len(f.lows)} low-margin word{'s' * (len(f.lows) != 1)}")
        if f.fault:
            problems.append(f"interpreter fault: {f.fault}")
        if f.injected:
            problems.append(f"{len(f.injected)} fault{'s' * (len(f.injected) != 1)} injected")
        if problems:
            out = Text("✗ " + "; ".join(problems) + " (diff pane)", style="bold white on red")
        else:
            out = Text("✓ model matches the interpreter", style="green")
        if self.message:
            out.append(f" │ {self.message}", style="cyan")
        return out


class PageTabs(Static):
    """The compact layout's pages (keys 1-5)."""

    DEFAULT_CSS = "PageTabs { height: 1; padding: 0 1; }"
    page: reactive[str] = reactive("code")

    def render(self) -> Text:
        out = Text()
        for i, p in enumerate(PAGES, 1):
            out.append(f" {i} {p} ", style="bold reverse" if p == self.page else "dim")
            out.append(" ")
        return out


class ErrorBox(Static):
    """The last failed reload's compiler message (hidden when the last reload worked)."""

    DEFAULT_CSS = """
    ErrorBox { height: auto; max-height: 8; border: heavy $error; color: $text-error; padding: 0 1; display: none; }
    ErrorBox.-shown { display: block; }
    """

    def show_error(self, text: str) -> None:
        self.border_title = "compile error (the session keeps the previous build)"
        self.update(Text(text))
        self.set_class(bool(text), "-shown")
