"""The pane base: a bordered widget that redraws from the app's reactive state."""

from __future__ import annotations

from typing import ClassVar

from rich.text import Text
from textual.reactive import reactive
from textual.widget import Widget

from app.debugger.session import Frame


REGISTRY: list[type["Pane"]] = []
"""Every pane class that declares an ``ID``, in definition order: the app builds its layout, the
compact pages and the help from it. Adding a pane is one widget file (imported by widgets/__init__.py)."""


class Pane(Widget):
    """A region of the screen. ``HELP`` (shown by the help screen) says what it shows and from
    where; ``draw`` renders the frame into at most ``height`` lines. A concrete pane declares where
    it goes: ``ID`` (its widget id), ``ROW`` and ``ORDER`` (the wide layout's row, left to right),
    ``WIDTH`` (there), ``PAGES`` (the compact pages that show it) and, for a pane the wide layout
    shows only when asked (it costs a computation per frame), ``REPLACES``: the rows it takes the
    place of."""

    TITLE: ClassVar[str] = ""
    HELP: ClassVar[str] = ""
    ID: ClassVar[str] = ""
    ROW: ClassVar[str] = ""
    ORDER: ClassVar[int] = 0
    WIDTH: ClassVar[str] = "1fr"
    PAGES: ClassVar[tuple[str, ...]] = ()
    REPLACES: ClassVar[tuple[str, ...] | None] = None

    def __init_subclass__(cls, **kw) -> None:
        super().__init_subclass__(**kw)
        if cls.ID:
            cls.DEFAULT_CSS = cls.__dict__.get("DEFAULT_CSS", "") + f"\n{cls.__name__} {{ width: {cls.WIDTH}; }}"
            REGISTRY.append(cls)
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
