"""Modal screens: help (keys and panes, from the key table and the panes' HELP), the breakpoint
list, and the breakpoint prompt."""

from __future__ import annotations

import io

from rich.table import Table
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical, VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Input, Label, ListItem, ListView, Static

from app.debugger.keymap import GROUPS, KEYS, show_key

NUMBERING = ("Numbering: tokens and EXEC steps are counted from 0 everywhere (token 0 = the first "
             "EXEC; the prompt is fed in the first forward pass, pass 1 → position 1). "
             "'pass n' = n forward passes done.")


class HelpScreen(ModalScreen[None]):
    DEFAULT_CSS = """
    HelpScreen { align: center middle; }
    HelpScreen > VerticalScroll { width: 90%; height: 90%; border: round $accent; background: $surface; }
    """
    BINDINGS = [Binding("escape,q,question_mark", "dismiss", "close help", id="help-close")]

    def __init__(self, keys: dict[str, str], panes: list[tuple[str, str]]):
        super().__init__()
        self.keys, self.panes = keys, panes

    def compose(self) -> ComposeResult:
        with VerticalScroll() as v:
            v.border_title = "qgpu-debug help (esc closes)"
            yield Static(self._keys())
            yield Static(Text(NUMBERING, style="italic"))
            yield Static(self._panes())

    def plain(self, width: int = 120) -> str:
        """The help as plain text (what the screen shows)."""
        from rich.console import Console

        c = Console(width=width, record=True, file=io.StringIO())
        for part in (self._keys(), Text(NUMBERING), self._panes()):
            c.print(part)
        return c.export_text()

    def _keys(self) -> Table:
        t = Table(box=None, show_header=False, padding=(0, 1))
        t.add_column("key", style="bold cyan", no_wrap=True)
        t.add_column("what", ratio=1)
        t.add_column("id", style="dim", no_wrap=True)
        for g, title in GROUPS.items():
            t.add_row("", Text(title, style="bold underline"), "")
            for k in KEYS:
                if k.group == g:
                    t.add_row(show_key(self.keys[k.id]), k.description, k.id)
        t.add_row("", "", "")
        t.add_row("", Text("Rebind keys with --keymap FILE (TOML: [keys] id = \"key\"); docs/debugger.md",
                           style="italic"), "")
        return t

    def _panes(self) -> Table:
        t = Table(box=None, show_header=False, padding=(0, 1))
        t.add_column("pane", style="bold", no_wrap=True)
        t.add_column("shows")
        for name, text in self.panes:
            t.add_row(name, text)
        return t


class Prompt(ModalScreen[str | None]):
    """Asks for one line of text (prefilled); enter gives it, escape gives None."""

    DEFAULT_CSS = """
    Prompt { align: center middle; }
    Prompt > Vertical { width: 64; height: auto; border: round $accent; background: $surface; padding: 0 1; }
    """
    BINDINGS = [Binding("escape", "cancel", "cancel", id="prompt-cancel")]

    def __init__(self, title: str, hint: str, default: str, input_id: str):
        super().__init__()
        self.title_text, self.hint, self.default, self.input_id = title, hint, default, input_id

    def compose(self) -> ComposeResult:
        with Vertical() as v:
            v.border_title = self.title_text
            yield Label(self.hint)
            yield Input(value=self.default, id=self.input_id)

    def on_input_submitted(self, event: Input.Submitted) -> None:
        self.dismiss(event.value)

    def action_cancel(self) -> None:
        self.dismiss(None)


def breakpoint_prompt(default: str) -> Prompt:
    """Asks for a breakpoint (prefilled with the current block)."""
    return Prompt("add a breakpoint or watchpoint",
                  "EXEC(3,*), EXEC(*,1), B3, line 12 [if r2@l1 == 7]; watch out[3], watch r4@w1.l2",
                  default, "bp-input")


def fault_prompt(default: str) -> Prompt:
    """Asks for a fault to inject into the model's state before the next EXEC step."""
    return Prompt("inject a fault into the model (before the next EXEC step)",
                  "rN@wW.lL | mem[A] | NAME[I] | rom[B.S].FIELD, then ^B (flip bit B) or =V; LN.nK | LN.hK "
                  "silences neuron/head K of layer N; 'clear' removes all",
                  default, "fault-input")


class BreakpointList(ModalScreen[None]):
    """Every breakpoint, with break-on-launch and break-on-mismatch: space toggles, d deletes."""

    DEFAULT_CSS = """
    BreakpointList { align: center middle; }
    BreakpointList > Vertical { width: 64; height: auto; max-height: 80%; border: round $accent; background: $surface; }
    """
    BINDINGS = [Binding("escape,q,B", "dismiss", "close", id="bplist-close"),
                Binding("space,t", "toggle", "toggle", id="bplist-toggle"),
                Binding("d,delete", "delete", "delete", id="bplist-delete")]

    def __init__(self, breakpoints):
        super().__init__()
        self.bps = breakpoints

    def compose(self) -> ComposeResult:
        with Vertical() as v:
            v.border_title = "breakpoints (space toggles, d deletes, esc closes)"
            yield ListView(*self._items(), id="bp-list")

    def _items(self) -> list[ListItem]:
        b = self.bps
        rows = [f"[{'x' if b.on_launch else ' '}] break on launch",
                f"[{'x' if b.on_mismatch else ' '}] break where the model departs from the interpreter"]
        rows += [f"[{'x' if bp.enabled else ' '}] {bp.spec}   hits {bp.hits}" for bp in b.items]
        return [ListItem(Label(Text(r))) for r in rows]

    def _refresh(self, index: int) -> None:
        lv = self.query_one(ListView)
        lv.clear()
        lv.extend(self._items())
        lv.index = min(index, len(lv.children) - 1)

    def action_toggle(self) -> None:
        i = self.query_one(ListView).index or 0
        if i == 0:
            self.bps.on_launch = not self.bps.on_launch
        elif i == 1:
            self.bps.on_mismatch = not self.bps.on_mismatch
        else:
            bp = self.bps.items[i - 2]
            bp.enabled = not bp.enabled
        self._refresh(i)

    def on_list_view_selected(self, event: ListView.Selected) -> None:
        self.action_toggle()

    def action_delete(self) -> None:
        i = self.query_one(ListView).index or 0
        if i >= 2:
            del self.bps.items[i - 2]
            self._refresh(i)
