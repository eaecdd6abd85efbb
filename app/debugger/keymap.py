"""The debugger's keys as data: one table gives the Textual bindings, the help screen and docs.

Keys follow gdb's SingleKey mode and pudb (``s``/``n`` step, ``c`` continue, ``f`` finish,
uppercase = the same backwards, ``b`` breakpoint, ``?`` help, ``q`` quit). Every binding has an
id; a keymap file rebinds them (TOML, ``[keys]`` table of ``id = "key"`` or ``"key1,key2"``):

    [keys]
    step = "j"
    reverse-step = "k"

It is read from ``--keymap FILE``, else ``$QGPU_DEBUG_KEYMAP``, else
``~/.config/qgpu/debug-keys.toml`` when that exists.
"""

from __future__ import annotations

import os
import tomllib
from dataclasses import dataclass
from pathlib import Path

from textual.binding import Binding

from compiler.errors import QgpuError
from app.debugger.pages import PAGES


@dataclass(frozen=True)
class Key:
    id: str
    key: str
    action: str
    description: str
    group: str
    show: bool = False
    """Shown in the footer (the help screen lists every key)."""


KEYS: tuple[Key, ...] = (
    Key("step", "s", "step", "step: one forward pass (one token)", "forward", True),
    Key("next", "n", "next", "next: run to the next EXEC token", "forward", True),
    Key("continue", "c", "continue", "continue to a breakpoint, a mismatch or END", "forward", True),
    Key("finish", "f", "finish", "finish: run to the end of the launch (END)", "forward"),
    Key("autostep", "a", "autostep", "autostep on/off (one pass after another)", "forward"),
    Key("faster", "plus", "speed(1)", "autostep faster", "forward"),
    Key("slower", "minus", "speed(-1)", "autostep slower", "forward"),
    Key("interrupt", "escape", "interrupt", "interrupt a continue, finish or autostep", "forward"),
    Key("reverse-step", "S", "reverse_step", "step back one forward pass (exact earlier state)", "backward", True),
    Key("reverse-next", "N", "reverse_next", "back to the previous EXEC", "backward"),
    Key("reverse-continue", "C", "reverse_continue", "back to the previous breakpoint hit (or the launch)",
        "backward"),
    Key("reverse-finish", "F", "reverse_finish", "back to the launch", "backward"),
    Key("restart", "r", "restart", "restart the launch", "backward"),
    Key("breakpoint", "b", "breakpoint", "add a breakpoint: EXEC(b,w) (* = any), B<n>, line <n> [if COND]; watch TARGET", "breakpoints",
        True),
    Key("breakpoints", "B", "breakpoints", "breakpoint list: toggle, delete; break on launch / mismatch",
        "breakpoints"),
    Key("inject", "i", "inject", "inject a fault into the model's state before the next EXEC, or silence a neuron/head ('clear' undoes)",
        "faults"),
    Key("warp", "w", "warp(1)", "focus the next warp (pins the focus)", "focus"),
    Key("warp-prev", "W", "warp(-1)", "focus the previous warp", "focus"),
    Key("lane", "l", "lane(1)", "focus the next lane", "focus"),
    Key("lane-prev", "L", "lane(-1)", "focus the previous lane", "focus"),
    Key("follow", "full_stop", "follow", "focus follows the warp of the current EXEC again", "focus"),
    Key("hex", "x", "toggle_hex", "values in hex / decimal", "view", True),
    Key("memory-values", "m", "toggle_memory", "memory: heat map / values", "view"),
    Key("layout", "v", "toggle_layout", "wide (every pane) / compact (pages) layout", "view"),
    *(Key(f"page-{p}", str(i), f"page('{p}')", f"compact layout: {what}", "view")
      for i, (p, what) in enumerate(PAGES.items(), 1)),
    Key("probe", "p", "probe", "per-layer probe on/off: what each layer of the last pass computed", "view"),
    Key("probe-next", "right_square_bracket", "probe_layer(1)",
        "probe: the next layer that changed something, in detail (past the last: every layer)", "view"),
    Key("probe-prev", "left_square_bracket", "probe_layer(-1)", "probe: the previous such layer, in detail", "view"),
    Key("refresh", "ctrl+l", "refresh", "decode the state again and redraw", "view"),
    Key("help", "question_mark", "help", "this help", "other", True),
    Key("quit", "q", "quit", "quit (closes the replay file of --record)", "other", True),
)

GROUPS = {"forward": "Stepping forward", "backward": "Stepping backward (exact: snapshots + re-execution)",
          "breakpoints": "Breakpoints", "faults": "Fault injection (model only)", "focus": "Focus (CTA follows the warp)", "view": "View",
          "other": "Other"}
DEFAULT_FILE = Path("~/.config/qgpu/debug-keys.toml")


class KeymapError(QgpuError):
    """A keymap file that cannot be used."""


def bindings() -> list[Binding]:
    return [Binding(k.key, k.action, k.description, show=k.show, id=k.id, key_display=_display(k.key))
            for k in KEYS]


def _display(key: str) -> str | None:
    return {"question_mark": "?", "plus": "+", "minus": "-", "escape": "esc", "full_stop": "."}.get(key)


def load_keymap(path: str | None) -> dict[str, str]:
    """Binding id -> keys, from the keymap file (an empty map when there is none)."""
    given = path or os.environ.get("QGPU_DEBUG_KEYMAP")
    p = Path(given).expanduser() if given else DEFAULT_FILE.expanduser()
    if not given and not p.exists():
        return {}
    try:
        data = tomllib.loads(p.read_text())
    except FileNotFoundError:
        raise KeymapError("no such keymap file", file=str(p)) from None
    except tomllib.TOMLDecodeError as e:
        raise KeymapError(f"not a TOML keymap: {e}", file=str(p)) from None
    keys = data.get("keys")
    if not isinstance(keys, dict):
        raise KeymapError('the keymap needs a [keys] table, e.g. [keys] step = "j"', file=str(p))
    ids = {k.id for k in KEYS}
    unknown = sorted(set(keys) - ids)
    if unknown:
        raise KeymapError(f"unknown binding id {', '.join(unknown)} (ids: {', '.join(k.id for k in KEYS)})",
                          file=str(p))
    bad = [i for i, v in keys.items() if not isinstance(v, str) or not v.strip()]
    if bad:
        raise KeymapError(f"binding {', '.join(bad)}: give the key(s) as a string, e.g. \"j\" or \"j,down\"",
                          file=str(p))
    return {i: v.replace(" ", "") for i, v in keys.items()}


def effective_keys(keymap: dict[str, str]) -> dict[str, str]:
    """Binding id -> the key(s) in force (the keymap over the defaults)."""
    return {k.id: keymap.get(k.id, k.key) for k in KEYS}


def show_key(keys: str) -> str:
    return ",".join(_display(k) or k for k in keys.split(","))
