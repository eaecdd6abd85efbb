"""The pane base: a bordered widget that redraws from the app's reactive state."""

from __future__ import annotations

from typing import ClassVar

from rich.text import Text
from textual.reactive import reactive
from textual.widget import Widget

from app.debugger.session import Frame


class Pane(Widget):
    """A region of the screen. ``HELP`` (shown by the help screen) says what it shows and from
    where; ``draw`` renders the frame into at most ``height`` lines."""

    TITLE: ClassVar[str] = ""
    HELP: ClassVar[str] = ""
    DEFAULT_CSS = """
    Pane { border: round $panel-lighten-2; border-title-color: $text-accent; padding: 0 1; height: 1fr;
           text-wrap: nowrap; text-overflow: clip; }
    """

    frame: reactive[Frame | None] = reactive(None)
    warp: reactive[int] = reactive(0)
    lane: reactive[int] = reactive(0)
    hex: reactive[bool] = reactive(False)

    def on_mount(self) -> None:
        self.border_title = self.TITLE

    def watch_frame(self, f: Frame | None) -> None:
        if f is not None:
            self.border_title = self.title_for(f)

    def title_for(self, f: Frame) -> str:
        return self.TITLE

    def render(self) -> Text:
        if self.frame is None:
            return Text("waiting for the model…", style="dim")
        try:
            return self.draw(self.frame, max(1, self.size.height), max(10, self.size.width))
        except Exception as e:  # a drawing bug must not take the session down: say it loudly
            return Text(f"cannot draw this pane: {type(e).__name__}: {e}", style="bold red")

    def draw(self, f: Frame, height: int, width: int) -> Text:
        raise NotImplementedError


def window(n: int, center: int, height: int) -> range:
    """Indices [lo, hi) of ``height`` items out of ``n`` with ``center`` in view (a third from the top)."""
    if n <= height:
        return range(n)
    lo = max(0, min(center - height // 3, n - height))
    return range(lo, lo + height)


def fmt(value: int, hex_: bool, signed: bool = True) -> str:
    value &= 0xFFFFFFFF
    if hex_:
        return f"{value:#010x}"
    return str(value - (1 << 32) if signed and value >> 31 else value)


def mask_text(mask: int, lanes: int) -> str:
    """Lanes of a mask as ``x.x.`` (lane 0 first)."""
    return "".join("x" if mask >> i & 1 else "." for i in range(lanes))


def lanes_list(mask: int, lanes: int) -> str:
    ls = [str(i) for i in range(lanes) if mask >> i & 1]
    return ",".join(ls) if ls else "none"
