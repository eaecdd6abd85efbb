"""The Textual app: panes, keys, and the worker that runs the session.

Every session command (a forward pass, a continue, a step back, a reload) runs in a thread
worker; the worker never touches a widget, it posts ``messages`` and the app applies the
frame. The kernel file's directory is watched (editors save by rename) with a debounce; a
reload compiles in a worker too, and a compile error is shown while the session goes on.
"""

from __future__ import annotations

import time
from pathlib import Path
from typing import Callable

from textual.app import App, ComposeResult
from textual.containers import Horizontal, Vertical
from textual.reactive import reactive
from textual.widgets import Footer

from compiler.errors import QgpuError
from app.debugger import keymap as km
from app.debugger.messages import (
    Failed, KernelChanged, Progress, ReloadFailed, ReloadReady, SessionReady, Stopped,
)
from app.debugger.session import Frame, Kernel, Session, Stop
from app.debugger import widgets  # noqa: F401 - registers every pane (widgets/__init__.py)
from app.debugger.pages import PAGES as PAGE_NAMES
from app.debugger.widgets.base import REGISTRY, Pane
from app.debugger.widgets.data import MemoryPane
from app.debugger.widgets.probe import ProbePane
from app.debugger.widgets.screens import BreakpointList, HelpScreen, breakpoint_prompt, fault_prompt
from app.debugger.widgets.status import ErrorBox, PageTabs, StatusBar

ROWS = {row: sorted((c for c in REGISTRY if c.ROW == row), key=lambda c: c.ORDER)
        for row in sorted({c.ROW for c in REGISTRY})}
"""The wide layout: row id -> its panes, left to right (each pane declares ROW and ORDER)."""
PAGES = {page: tuple(c.ID for c in REGISTRY if page in c.PAGES) for page in PAGE_NAMES}
"""The compact layout: page -> the ids of the panes it shows (each pane declares PAGES)."""
OPTIONAL = {c.ID: c.REPLACES for c in REGISTRY if c.REPLACES is not None}
"""Panes the wide layout shows only when asked (``p``: they cost a computation per frame), and the
rows they take the place of while shown."""
SPEEDS = (2.0, 1.0, 0.5, 0.2, 0.0)
"""Autostep pause between forward passes, seconds."""
WIDE = (110, 34)
"""The smallest terminal that gets every pane at once (auto layout)."""

Loader = Callable[[Callable[[str], None]], Session]


class DebugApp(App[None]):
    CSS_PATH = "debugger.tcss"
    TITLE = "qgpu-debug"
    BINDINGS = km.bindings()
    ENABLE_COMMAND_PALETTE = False

    frame: reactive[Frame | None] = reactive(None)
    warp: reactive[int] = reactive(0)
    lane: reactive[int] = reactive(0)
    hex: reactive[bool] = reactive(False)
    busy: reactive[str] = reactive("")
    follow: reactive[bool] = reactive(True)
    """The focus follows the warp of the current EXEC (w/W/l/L pin it, '.' follows again)."""
    compact: reactive[bool] = reactive(False)
    page: reactive[str] = reactive("code")

    def __init__(self, load: Loader, *, kernel_file: str | None = None,
                 reload_kernel: Callable[[], Kernel] | None = None, keymap: dict[str, str] | None = None,
                 watch: bool = True, layout: str = "auto", show_timing: bool = True):
        super().__init__()
        self._load = load
        self.session: Session | None = None
        self.kernel_file = kernel_file
        self._reload_kernel = reload_kernel
        self._keymap = keymap or {}
        self._watch_files = watch and kernel_file is not None and reload_kernel is not None
        self._layout_mode = layout
        self.show_timing = show_timing
        self.autostep = False
        self._speed = 2
        self._pending_reload: Kernel | None = None
        self._last_progress = 0.0
        self.reloads = 0
        """Reloads applied (tests wait on it)."""
        self.reload_errors = 0
        self.extra: set[str] = set()
        """The OPTIONAL panes the wide layout shows now."""
        self._command = "running"
        """The name of the session command running (``busy`` shows its progress)."""

    # --- layout ---------------------------------------------------------------------------------
    def compose(self) -> ComposeResult:
        yield StatusBar(id="status").data_bind(DebugApp.frame, DebugApp.warp, DebugApp.lane, DebugApp.hex,
                                               DebugApp.busy, DebugApp.follow)
        yield PageTabs(id="tabs").data_bind(DebugApp.page)
        yield ErrorBox(id="error")
        with Vertical(id="panes"):
            for row, panes in ROWS.items():
                with Horizontal(id=row, classes="row"):
                    for cls in panes:
                        yield cls(id=cls.ID, classes="pane").data_bind(DebugApp.frame, DebugApp.warp,
                                                                         DebugApp.lane, DebugApp.hex)
        yield Footer()

    def on_mount(self) -> None:
        if self._keymap:
            self.set_keymap(self._keymap)
        if self._layout_mode in ("wide", "compact"):
            self.compact = self._layout_mode == "compact"
        self._apply_layout()
        self.busy = "loading"
        self.run_worker(self._start, thread=True, group="engine", name="start", exit_on_error=False)
        if self._watch_files:
            self.run_worker(self._watch(), group="watch", name="watch", exit_on_error=False)

    def on_resize(self, event) -> None:
        if self._layout_mode == "auto":
            self.compact = event.size.width < WIDE[0] or event.size.height < WIDE[1]

    def watch_compact(self) -> None:
        self._apply_layout()

    def watch_page(self) -> None:
        self._apply_layout()

    def _apply_layout(self) -> None:
        shown = set(PAGES[self.page])
        replaced = {row for pid in self.extra for row in OPTIONAL[pid]}
        for row in ROWS:
            r = self.query_one(f"#{row}")
            any_shown = False
            for pane in r.query(Pane):
                if self.compact:
                    pane.display = pane.id in shown
                else:
                    pane.display = (pane.id in self.extra if pane.id in OPTIONAL else row not in replaced)
                any_shown |= pane.display
            r.display = any_shown
        probe = self.query("#probe")
        want = bool(probe) and bool(probe.first().display)
        if self.session is not None and self.session.probe_on != want:
            self.session.probe_on = want
            if want:
                self._engine("probe", lambda s: s.here())
        self.query_one("#panes").set_class(self.compact, "-compact")
        self.query_one(PageTabs).display = self.compact

    # --- the worker -----------------------------------------------------------------------------
    def _start(self) -> None:
        try:
            session = self._load(lambda text: self.post_message(Progress(text)))
            self.post_message(Progress(f"feeding the prompt ({len(session.backend.prompt)} tokens) in the first "
                                       "forward pass"))
            stop = session.start()
            frame = session.frame(stop)
        except QgpuError as e:
            self.post_message(Failed(str(e)))
            return
        except Exception as e:  # noqa: BLE001 - shown, never a traceback in the terminal
            self.post_message(Failed(f"{type(e).__name__}: {e}"))
            return
        self.post_message(SessionReady(session, frame))

    def _engine(self, name: str, command: Callable[[Session], Stop]) -> bool:
        """Run a session command in the worker (one at a time)."""
        if self.session is None:
            return False
        if self.busy:
            self._message(f"still running: {self.busy}")
            return False
        self.busy = self._command = name
        self.session.interrupt.clear()
        self.run_worker(lambda: self._run(command), thread=True, group="engine", name=name, exit_on_error=False)
        return True

    def _run(self, command: Callable[[Session], Stop]) -> None:
        t = time.perf_counter()
        try:
            stop = command(self.session)
            frame = self.session.frame(stop)
        except QgpuError as e:
            self.post_message(Failed(str(e)))
            return
        except Exception as e:  # noqa: BLE001
            self.post_message(Failed(f"{type(e).__name__}: {e}"))
            return
        self.post_message(Stopped(frame, time.perf_counter() - t))

    def _on_pass(self, pos: int) -> None:
        now = time.monotonic()
        if now - self._last_progress > 0.25:
            self._last_progress = now
            self.post_message(Progress(f"{self._command}: token {pos - 1}"))

    # --- engine events ----------------------------------------------------------------------------
    def on_session_ready(self, msg: SessionReady) -> None:
        self.session = msg.session
        self.session.probe_on = bool(self.query_one("#probe").display)  # mounted by now
        self.session.on_pass = self._on_pass
        self.busy = ""
        self._show(msg.frame)
        self._message("")

    def on_stopped(self, msg: Stopped) -> None:
        self.busy = ""
        f = msg.frame
        self._show(f)
        self._message(f"{msg.seconds:.2f} s" if self.show_timing else "")
        if self._pending_reload is not None:
            k, self._pending_reload = self._pending_reload, None
            self._apply_reload(k)
            return
        if self.autostep:
            if f.stop.kind in ("breakpoint", "end", "mismatch", "interrupt"):
                self.autostep = False
            else:
                self.set_timer(SPEEDS[self._speed], self._autostep_tick)

    def _show(self, f: Frame) -> None:
        if self.follow and f.step is not None:
            self.warp = f.step.warp
        self.warp = min(self.warp, f.kernel.warps - 1)
        self.frame = f

    def on_progress(self, msg: Progress) -> None:
        if self.busy:
            self.busy = msg.text
        self._message(msg.text)

    def on_failed(self, msg: Failed) -> None:
        self.busy = ""
        self.autostep = False
        self.query_one(StatusBar).error = msg.text.splitlines()[0]
        self.query_one(ErrorBox).show_error(msg.text)

    # --- hot reload -------------------------------------------------------------------------------
    async def _watch(self) -> None:
        from watchfiles import awatch

        target = Path(self.kernel_file).resolve()
        async for changes in awatch(target.parent, debounce=300, step=50, recursive=False):
            if any(Path(p).resolve() == target for _, p in changes) and target.exists():
                self.post_message(KernelChanged())

    def on_kernel_changed(self, msg: KernelChanged) -> None:
        self._message(f"{Path(self.kernel_file).name} changed: recompiling")
        self.run_worker(self._compile, thread=True, group="compile", exclusive=True, exit_on_error=False)

    def _compile(self) -> None:
        try:
            kernel = self._reload_kernel()
        except QgpuError as e:  # the command line's form: file:line: error: message, then the detail
            text = f"{e.location()}error: {e.message}" + (f"\n{e.detail}" if e.detail else "")
            self.post_message(ReloadFailed(self._short_paths(text)))
            return
        except Exception as e:  # noqa: BLE001
            self.post_message(ReloadFailed(f"{type(e).__name__}: {e}"))
            return
        self.post_message(ReloadReady(kernel))

    def _short_paths(self, text: str) -> str:
        """Compiler messages name the file; show its name only (no directories)."""
        p = Path(self.kernel_file)
        for d in {str(p.parent), str(p.resolve().parent)}:
            text = text.replace(d + "/", "")
        return text

    def on_reload_failed(self, msg: ReloadFailed) -> None:
        self.reload_errors += 1
        self.query_one(ErrorBox).show_error(msg.text)
        self.query_one(StatusBar).error = msg.text.splitlines()[0]

    def on_reload_ready(self, msg: ReloadReady) -> None:
        self.query_one(ErrorBox).show_error("")
        self.query_one(StatusBar).error = ""
        if self.busy and self.session is not None:
            self._pending_reload = msg.kernel
            self.session.interrupt.set()
        else:
            self._apply_reload(msg.kernel)

    def _apply_reload(self, kernel: Kernel) -> None:
        def cmd(s: Session) -> Stop:
            stop, dropped = s.reload(kernel)
            self.reloads += 1
            if dropped:
                return Stop(stop.kind, stop.text + "; breakpoints dropped: " + "; ".join(dropped))
            return stop

        self._engine("reloading: a new launch (prompt pass)", cmd)

    # --- actions ------------------------------------------------------------------------------------
    def action_step(self) -> None:
        self._engine("step", Session.step)

    def action_next(self) -> None:
        self._engine("next EXEC", Session.step_exec)

    def action_continue(self) -> None:
        self._engine("continue", Session.cont)

    def action_finish(self) -> None:
        self._engine("finish", Session.finish)

    def action_reverse_step(self) -> None:
        self._engine("step back", Session.back)

    def action_reverse_next(self) -> None:
        self._engine("back to the previous EXEC", Session.back_exec)

    def action_reverse_continue(self) -> None:
        self._engine("reverse continue", Session.back_cont)

    def action_reverse_finish(self) -> None:
        self._engine("back to the launch", Session.back_finish)

    def action_restart(self) -> None:
        self._engine("restart", Session.restart)

    def action_refresh(self) -> None:
        self._engine("decoding the state", Session.here)

    def action_interrupt(self) -> None:
        self.autostep = False
        if self.session is not None and self.busy:
            self.session.interrupt.set()

    def action_autostep(self) -> None:
        self.autostep = not self.autostep
        self._message(f"autostep {'on' if self.autostep else 'off'}: one pass every {SPEEDS[self._speed]} s")
        if self.autostep and not self.busy:
            self.action_step()

    def _autostep_tick(self) -> None:
        if self.autostep and not self.busy:
            self.action_step()

    def action_speed(self, d: int) -> None:
        self._speed = max(0, min(len(SPEEDS) - 1, self._speed + d))
        self._message(f"autostep: one pass every {SPEEDS[self._speed]} s")

    def action_breakpoint(self) -> None:
        if self.session is None:
            return
        f = self.frame
        default = f"EXEC({f.step.block},*)" if f and f.step else "EXEC(0,*)"

        def done(text: str | None) -> None:
            if not text:
                return
            try:
                bp = self.session.add_breakpoint(text)
            except ValueError as e:
                self._message(f"✗ {e}")
                return
            self._message(f"breakpoint {bp.spec} set")
            self._redraw()

        self.push_screen(breakpoint_prompt(default), done)

    def action_inject(self) -> None:
        if self.session is None:
            return
        default = f"r1@w{self.warp}.l{self.lane}^0"  # the focused lane

        def done(text: str | None) -> None:
            if not text or not text.strip():
                return
            if text.strip() == "clear":
                self._engine("clear faults", lambda s: s.clear_faults())
                return
            try:
                self.session.check_fault(text)
            except (ValueError, QgpuError) as e:
                self._message(f"✗ {getattr(e, 'message', None) or e}")
                return
            self._engine("inject", lambda s: s.inject(text))

        self.push_screen(fault_prompt(default), done)

    def action_breakpoints(self) -> None:
        if self.session is not None:
            self.push_screen(BreakpointList(self.session.breakpoints), lambda _: self._redraw())

    def action_warp(self, d: int) -> None:
        if self.frame is not None:
            self.follow = False
            self.warp = (self.warp + d) % self.frame.kernel.warps

    def action_lane(self, d: int) -> None:
        if self.frame is not None:
            self.follow = False
            self.lane = (self.lane + d) % self.frame.kernel.cfg.lanes

    def action_follow(self) -> None:
        self.follow = True
        if self.frame is not None and self.frame.step is not None:
            self.warp = self.frame.step.warp

    def action_toggle_hex(self) -> None:
        self.hex = not self.hex

    def action_toggle_memory(self) -> None:
        m = self.query_one(MemoryPane)
        m.values = not m.values

    def action_toggle_layout(self) -> None:
        self._layout_mode = "fixed"
        self.compact = not self.compact

    def action_page(self, name: str) -> None:
        self._layout_mode = "fixed"
        self.page = name
        self.compact = True

    def action_probe(self) -> None:
        """Show or hide the per-layer probe (wide layout: a row of its own; compact: its page)."""
        if self.compact:
            self.page = "code" if self.page == "probe" else "probe"
        else:
            self.extra ^= {"probe"}
            self._apply_layout()

    def action_probe_layer(self, step: int) -> None:
        """Select the next (previous) layer the probed pass changed and show it in detail; past the
        last (first) layer, back to every layer."""
        pane = self.query_one(ProbePane)
        probe = self.frame.probe if self.frame is not None else None
        if not self.session or not self.session.probe_on or probe is None or isinstance(probe, str):
            self._message("the probe is off: p shows it")
            return
        active = [lp.index for lp in probe.layers if lp.groups or lp.writes]
        if not active:
            self._message("the probed pass changed nothing")
            return
        order = [None] + active
        i = order.index(pane.selected) if pane.selected in order else 0
        pane.selected = order[(i + step) % len(order)]
        pane.refresh()

    def action_help(self) -> None:
        panes = [(cls.TITLE, cls.HELP) for cls in REGISTRY]
        self.push_screen(HelpScreen(km.effective_keys(self._keymap), panes))

    async def action_quit(self) -> None:
        if self.session is not None:
            self.session.interrupt.set()
        self.exit()

    # --- helpers ---------------------------------------------------------------------------------------
    def _message(self, text: str) -> None:
        self.query_one(StatusBar).message = text

    def _redraw(self) -> None:
        for pane in self.query(Pane):
            pane.refresh()
