"""Top region: the CUDA source and the PTX, side by side, with the current block marked."""

from __future__ import annotations

import re
from functools import lru_cache

from pygments import lex
from pygments.lexers import get_lexer_by_name
from pygments.token import Comment, Keyword, Name, Number, Operator, String, Token
from rich.text import Text

from app.debugger.session import Frame
from app.debugger.widgets.base import Pane, window

_STYLES = [
    (Comment, "italic #7f8c8d"), (Keyword.Type, "#56b6c2"), (Keyword, "bold #c678dd"),
    (Name.Function, "#61afef"), (Name.Builtin, "#e5c07b"), (Name.Variable, "#e5c07b"),
    (Name.Label, "#61afef"), (String, "#98c379"), (Number, "#d19a66"), (Operator, "#abb2bf"),
]
CURRENT = "on #2c3550"
BREAK = "bold red"


def _style(tok) -> str:
    for t, s in _STYLES:
        if tok in t:
            return s
    return ""


@lru_cache(maxsize=8)
def highlight(code: str, lang: str) -> tuple[Text, ...]:
    """Source lines as rich Text, highlighted by pygments (``cuda``, ``ptx``)."""
    text = Text()
    for tok, value in lex(code, get_lexer_by_name(lang)):
        text.append(value, _style(tok) if tok is not Token.Text else "")
    lines = text.split("\n", allow_blank=True)
    return tuple(lines)


def breakpoint_blocks(f: Frame) -> set[int]:
    out: set[int] = set()
    if f.breakpoints is None:
        return out
    for bp in f.breakpoints.items:
        if bp.enabled:
            blocks = bp.blocks(f.kernel.program)
            if blocks is not None:
                out |= blocks
    return out


class _Listing(Pane):
    LANG = ""

    def lines_of(self, f: Frame) -> tuple[str, list[int], list[int], set[int]]:
        """(code, current lines, first-instruction lines, breakpoint lines)."""
        raise NotImplementedError

    def draw(self, f: Frame, height: int, width: int) -> Text:
        code, current, starts, bps = self.lines_of(f)
        lines = highlight(code, self.LANG)
        n = len(lines)
        center = (min(current) - 1) if current else 0
        cur = set(current)
        out = Text(no_wrap=True, overflow="crop")
        for i in window(n, center, height):
            ln = i + 1
            mark = Text("● " if ln in bps else "  ", style=BREAK)
            mark.append("▶" if ln in starts else ("│" if ln in cur else " "), style="bold yellow")
            mark.append(f"{ln:>3} ", style="dim")
            body = lines[i].copy()
            if ln in cur:
                body.stylize(CURRENT)
                body.pad_right(max(0, width - len(mark) - len(body.plain)))
                body.stylize(CURRENT)
            out.append_text(mark)
            out.append_text(body)
            out.append("\n")
        out.rstrip()
        return out


class SourcePane(_Listing):
    TITLE = "CUDA source"
    ID, ROW, ORDER, WIDTH, PAGES = "source", "row-a", 0, "1fr", ("code",)
    HELP = ("The kernel's CUDA source, highlighted. Lines the current block was compiled from are "
            "shaded (▶ its first line); ● marks lines of blocks that have a breakpoint.")
    LANG = "cuda"

    def lines_of(self, f: Frame):
        p = f.kernel.program
        bps = {ln for b in breakpoint_blocks(f) if b < len(p.blocks) for ln in p.blocks[b].cuda_lines}
        if f.breakpoints:
            bps |= {bp.line for bp in f.breakpoints.items if bp.enabled and bp.line is not None}
        cur = list(p.blocks[f.step.block].cuda_lines) if f.step and f.step.block < len(p.blocks) else []
        return p.source, cur, cur[:1], bps

    def title_for(self, f: Frame) -> str:
        return f"CUDA · {f.kernel.name}"


_FILE = re.compile(r'(\.file\s+\d+\s+")[^"]*/([^"/]*")')


class PtxPane(_Listing):
    TITLE = "PTX"
    ID, ROW, ORDER, WIDTH, PAGES = "ptx", "row-a", 1, "1fr", ("code",)
    HELP = ("The PTX the kernel compiled to. The current block's PTX lines are shaded; ▶ marks the "
            "instructions it runs (one EXEC runs the whole block in one forward pass).")
    LANG = "ptx"

    def lines_of(self, f: Frame):
        p = f.kernel.program
        bps = {ln for b in breakpoint_blocks(f) if b < len(p.blocks) for ln in p.blocks[b].ptx_lines[:1]}
        if f.step and f.step.block < len(p.blocks):
            blk = p.blocks[f.step.block]
            cur = list(blk.ptx_lines)
            starts = [i.line for i in blk.instrs if i.line]
        else:
            cur, starts = [], []
        # the compiler's temporary directory means nothing here (and would change every run)
        return _FILE.sub(r"\1\2", p.ptx), cur, starts or cur[:1], bps

    def title_for(self, f: Frame) -> str:
        if f.step and f.step.block < len(f.kernel.program.blocks):
            blk = f.kernel.program.blocks[f.step.block]
            return f"PTX · B{blk.index}: {len(blk.instrs)} instrs"
        return "PTX"
