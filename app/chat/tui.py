"""``qgpu chat``: the conversation, an input line, and the debugger's machine panes, live.

The screen: the conversation on the left (who wrote each text: the user, the model, or — clearly
labelled — a forced assistant text), the input line under it, and on the right the debugger's own
panes (warps, registers, memory, the launch's tokens) updating while a launch runs, one forward
pass at a time: the chat steps each launch through a debugger ``Session`` whose backend is the
launch inside the conversation (``ModelBackend(run=...)``), so the panes show exactly what
``qgpu-debug`` shows. Commands start with '/': ``/help`` lists them (``COMMANDS``).
"""

from __future__ import annotations

import shlex
import subprocess
import sys
import time

from rich.markup import escape
from textual.app import App, ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.reactive import reactive
from textual.widgets import Footer, Input, RichLog, Static

from app.debugger.session import Frame, Kernel, Session
from app.debugger.widgets.data import MemoryPane, TokenPane
from app.debugger.widgets.machine import RegistersPane, WarpTable

COMMANDS = {
    "/help": "list the commands",
    "/mode normal|advanced": "switch mode (starts a new conversation: the system prompt differs)",
    "/reset": "start a new conversation (text and machine state)",
    "/panel": "show or hide the machine panes",
    "/force TEXT": "FORCE the assistant's text for the next question (no capable model is reachable here)",
    "/debug": "open the last launch in qgpu-debug (the same kernel and arguments, on this checkpoint)",
    "/quit": "leave",
}
PANES = ((WarpTable, "warps"), (RegistersPane, "registers"), (MemoryPane, "memory"), (TokenPane, "tokens"))
STYLES = {"assistant": "bold green", "forced": "bold magenta", "error": "red", "launch": "cyan",
          "launch-bad": "bold red", "tool": "cyan"}
"""Markup per role of ``Turn.lines``."""
FRAME_EVERY = 0.1
"""Seconds between pane updates during a launch (the last pass is always shown)."""


class ChatApp(App[None]):
    TITLE = "qgpu chat"
    ENABLE_COMMAND_PALETTE = False
    BINDINGS = [Binding("ctrl+q", "quit", "quit"), Binding("f2", "panel", "panes")]
    CSS = """
    #conversation-column { width: 1fr; }
    #panel { width: 1fr; }
    #panel.-hidden { display: none; }
    #log { height: 1fr; border: round $panel-lighten-2; }
    #status { height: 1; background: $boost; }
    .pane { height: 1fr; width: 1fr; }  /* stacked: full width, not the debugger's row widths */
    """

    frame: reactive[Frame | None] = reactive(None)
    warp: reactive[int] = reactive(0)
    lane: reactive[int] = reactive(0)
    hex: reactive[bool] = reactive(False)

    def __init__(self, load, *, mode: str = "normal", forced: list[str] | None = None, model_dir: str = "",
                 engine: str = "fast", dtype: str = "float32", max_steps: int = 2000, text_tokens: int = 96):
        super().__init__()
        self._load = load
        self.mode = mode
        self.forced = list(forced or [])
        """Forced assistant texts, one per question in order (--assistant-text, /force)."""
        self.model_dir, self.engine, self.dtype = model_dir, engine, dtype
        self.max_steps, self.text_tokens = max_steps, text_tokens
        self.chat = None
        self.busy = False
        self._last_frame = 0.0

    def compose(self) -> ComposeResult:
        with Horizontal():
            with Vertical(id="conversation-column"):
                yield RichLog(id="log", wrap=True, markup=True, min_width=20)
                yield Static("loading the model…", id="status")
                yield Input(placeholder="ask a question, or /help", id="input")
            with Vertical(id="panel"):
                for cls, pid in PANES:
                    yield cls(id=pid, classes="pane").data_bind(ChatApp.frame, ChatApp.warp, ChatApp.lane,
                                                                ChatApp.hex)
        yield Footer()

    def on_mount(self) -> None:
        self.query_one(Input).focus()
        self.run_worker(self._start, thread=True, group="engine", exit_on_error=False)

    # --- the worker ----------------------------------------------------------------------------
    def _start(self) -> None:
        from app.chat.session import ChatSession

        try:
            gpu = self._load(lambda text: self.call_from_thread(self._status, text))
            self.chat = ChatSession(gpu, self.mode, max_steps=self.max_steps, text_tokens=self.text_tokens,
                                    on_launch=self._on_launch)
        except Exception as e:  # noqa: BLE001 (shown, the app stays up to be quit)
            self.call_from_thread(self._status, f"cannot load the model: {e}")
            return
        self.call_from_thread(self._status, f"ready: {self.mode} mode; /help lists the commands")

    def _on_launch(self, run, k) -> callable:
        """Step the launch through a debugger session so that the panes show its frames."""
        from app.debugger.backends import ModelBackend

        kernel = Kernel(k.program, k.launch, self.chat.gpu.machine, k.program.kernel, dict(k.args), k.grid, k.block)
        session = Session(ModelBackend(self.chat.gpu, k.program, k.launch, run=run), kernel)

        def step() -> str:
            stop = session.step()
            now = time.monotonic()
            if now - self._last_frame > FRAME_EVERY or run.done:
                self._last_frame = now
                frame = session.frame(stop)
                self.call_from_thread(self._show_frame, frame)
            self.call_from_thread(self._status, f"launch: token {len(run.generated) - 1} = {run.generated[-1]}")
            return run.generated[-1]

        return step

    def _ask(self, question: str, forced: str | None) -> None:
        from compiler.errors import QgpuError

        try:
            turn = self.chat.ask(question, forced)
        except QgpuError as e:
            self.call_from_thread(self._say, f"[red]error:[/] {escape(str(e))}")
        except Exception as e:  # noqa: BLE001
            self.call_from_thread(self._say, f"[bold red]internal error:[/] {type(e).__name__}: {escape(str(e))}")
        else:
            self.call_from_thread(self._show_turn, turn)
        finally:
            self.busy = False
            self.call_from_thread(self._status, f"ready: {self.chat.mode} mode")

    # --- display --------------------------------------------------------------------------------
    def _status(self, text: str) -> None:
        self.query_one("#status", Static).update(text)

    def _say(self, markup: str) -> None:
        self.query_one(RichLog).write(markup)

    def _show_frame(self, frame: Frame) -> None:
        if frame.step is not None:
            self.warp = frame.step.warp
        self.frame = frame

    def _show_turn(self, turn) -> None:
        for role, label, text in turn.lines():
            self._say(f"[{STYLES[role]}]{escape(label)}[/]: {escape(text)}")

    # --- input ----------------------------------------------------------------------------------
    def on_input_submitted(self, event: Input.Submitted) -> None:
        text = event.value.strip()
        event.input.value = ""
        if not text:
            return
        if text.startswith("/"):
            self.command(text)
            return
        if self.chat is None or self.busy:
            self._status("busy: wait for the model")
            return
        self.busy = True
        self._say(f"[bold blue]user[/]: {escape(text)}")
        forced = self.forced.pop(0) if self.forced else None
        self._status("the model is answering…")
        self.run_worker(lambda: self._ask(text, forced), thread=True, group="engine", exit_on_error=False)

    def command(self, text: str) -> None:
        name, _, arg = text.partition(" ")
        if name == "/help":
            for cmd, what in COMMANDS.items():
                self._say(f"  [bold]{escape(cmd)}[/]  {escape(what)}")
        elif name == "/quit":
            self.exit()
        elif name == "/panel":
            self.action_panel()
        elif name == "/force":
            if not arg:
                self._say("[red]/force TEXT: give the text[/]")
            else:
                self.forced.insert(0, arg)
                self._say(f"[magenta]the next assistant text is FORCED:[/] {escape(arg)}")
        elif name in ("/mode", "/reset"):
            if self.chat is None or self.busy:
                self._status("busy: wait for the model")
                return
            mode = arg.strip() or self.chat.mode
            if name == "/mode" and mode not in ("normal", "advanced"):
                self._say("[red]/mode normal|advanced[/]")
                return
            self.chat.reset(mode)
            self.query_one(RichLog).clear()
            self._say(f"[dim]new conversation, {mode} mode[/]")
            self._status(f"ready: {mode} mode")
        elif name == "/debug":
            self.debug_last()
        else:
            self._say(f"[red]unknown command {escape(name)}[/]; /help lists them")

    def action_panel(self) -> None:
        self.query_one("#panel").toggle_class("-hidden")

    def debug_command(self) -> list[str] | None:
        """The qgpu-debug command line of the last launch (None: no launch yet)."""
        last = next((r for t in reversed(self.chat.turns if self.chat else []) for r in reversed(t.launches)), None)
        if last is None:
            return None
        return [sys.executable, "-m", "app.debug", last.file, *last.args, "--model", self.model_dir,
                "--engine", self.engine, "--dtype", self.dtype]

    def debug_last(self) -> None:
        cmd = self.debug_command()
        if cmd is None:
            self._say("[red]/debug: no launch yet[/]")
            return
        self._say(f"[dim]{escape(shlex.join(cmd[2:]))}[/]")
        with self.suspend():
            subprocess.run(cmd)
        self.refresh()
