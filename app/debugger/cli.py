"""``qgpu-debug``: the command line (argument checks, model build/load, replay files).

Bad input (a CUDA error, bad arguments, a bad replay or keymap file) is one message with
file:line and exit status 2, never a traceback; 3 is a bug in qgpu (``QGPU_DEBUG=1`` shows it).
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

from app.launching import add_machine_option, exit_status
from compiler.errors import LaunchError

DESCRIPTION = """\
Debug a CUDA kernel on the GPU model: every step is one forward pass of the Qwen3.5
checkpoint the GPU is compiled into (one token). The reference interpreter runs beside it
for the diff pane only. Launch configuration and arguments default to the file's
'// qgpu:' header. Saving the kernel file recompiles it and restarts the launch.
"""

EPILOG = """\
keys (rebindable with --keymap; ? in the debugger lists them all):
  s step (one forward pass)   n next EXEC   c continue   f finish   S N C F the same backwards
  b add breakpoint EXEC(b,w) (* = any)   B breakpoint list   r restart   w/l focus warp/lane
  x hex/dec   m memory values   v wide/compact layout   1-5 pages   ? help   q quit

examples:
  qgpu-debug samples/divergence_nested.cu
  qgpu-debug samples/divergence_nested.cu --model /tmp/ck3 --record /tmp/dn.qgpu-replay
  qgpu-debug --replay /tmp/dn.qgpu-replay              # no model needed
  qgpu-debug samples/dot.cu --grid 1 --block 4 a=1,2,3 b=4,5,6 out=zeros:1 n=3

tokens and EXEC steps are numbered from 0 everywhere; docs/debugger.md has the details.
"""


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> None:
        self.print_usage(sys.stderr)
        print(f"qgpu-debug: error: {message}", file=sys.stderr)
        sys.exit(2)


def build_parser() -> argparse.ArgumentParser:
    p = _Parser(prog="qgpu-debug", description=DESCRIPTION, epilog=EPILOG,
                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("file", nargs="?", help="CUDA kernel file (.cu)")
    p.add_argument("args", nargs="*", metavar="NAME=VALUES", help="kernel arguments (as for 'qgpu run')")
    p.add_argument("--grid", type=int, help="number of CTAs (1-D)")
    p.add_argument("--block", type=int, help="threads per CTA (1-D)")
    p.add_argument("--kernel", help="kernel to debug when the file has several")
    p.add_argument("--model", metavar="DIR", help="GPU checkpoint directory (default: the cached build of "
                   "--machine, built on first use; 'qgpu build --out DIR --machine 3:32' makes a small one)")
    add_machine_option(p)
    p.add_argument("--dtype", choices=["float32", "bfloat16"], default="float32",
                   help="dtype the checkpoint is loaded in (default float32)")
    p.add_argument("--engine", choices=["fast", "hf"], default="fast",
                   help="what executes the checkpoint: 'fast' (default; engine/fast.py, a generic Qwen3.5 "
                        "executor that skips exact-zero weights) or 'hf' (stock transformers, the reference)")
    p.add_argument("--record", metavar="FILE", help="write a replay file of the session (every token and "
                   "decoded state; written when the debugger quits)")
    p.add_argument("--replay", metavar="FILE", help="replay a recorded session (no model needed)")
    p.add_argument("--keymap", metavar="FILE", help="TOML keymap: [keys] id = \"key\" (ids in the help screen; "
                   "default ~/.config/qgpu/debug-keys.toml or $QGPU_DEBUG_KEYMAP)")
    p.add_argument("--layout", choices=["auto", "wide", "compact"], default="auto",
                   help="wide: every pane at once (needs about 110x34); compact: pages of two panes "
                        "(keys 1-5); auto picks by terminal size (default)")
    p.add_argument("--no-watch", action="store_true", help="do not reload the kernel when its file changes")
    p.add_argument("--no-ui", action="store_true", help="no TUI: run the launch to its end on the model (or "
                   "through the replay), print a summary, write --record; exit 4 if the model departs from the "
                   "interpreter")
    return p


def _progress(msg: str) -> None:
    print(f"qgpu-debug: {msg}", file=sys.stderr, flush=True)


def _kernel_loader(ns: argparse.Namespace, cfg):
    """Compiles the kernel file (again) into a session Kernel; QgpuError with file:line on failure."""
    from app.debugger.session import Kernel
    from app.launching import launch_for

    def load() -> Kernel:
        k = launch_for(ns.file, ns.kernel, ns.grid, ns.block, ns.args, cfg)
        return Kernel(k.program, k.launch, cfg, Path(ns.file).name, k.args, k.grid, k.block)

    return load


def _model_session(ns: argparse.Namespace):
    """(loader for the app, kernel reloader, holder of what the loader built)."""
    from app.launching import checkpoint_for, machine_for
    from compiler.circuit.gpu import unsupported

    path = checkpoint_for(ns.model, ns.machine, _progress)
    cfg = machine_for(path, None)
    make_kernel = _kernel_loader(ns, cfg)
    kernel = make_kernel()  # compile errors end here, before the UI starts
    missing = unsupported(kernel.program, kernel.launch)
    if missing:
        _progress(f"warning: the circuit does not implement {', '.join(missing)} yet: the model will depart "
                  "from the interpreter (the diff pane shows where)")
    built: dict = {}

    def load(progress):
        from app.debugger.backends import ModelBackend
        from app.debugger.replay import Recorder
        from app.debugger.session import Session
        from engine.model import GpuModel

        progress(f"loading the checkpoint {Path(path).name} ({ns.dtype}, engine {ns.engine})")
        gpu = GpuModel(path, ns.dtype, engine=ns.engine, progress=progress)
        recorder = Recorder(ns.record, gpu) if ns.record else None
        s = Session(ModelBackend(gpu, kernel.program, kernel.launch), kernel, recorder=recorder,
                    make_backend=lambda k: ModelBackend(gpu, k.program, k.launch))
        built["session"] = s
        return s

    return load, make_kernel, built


def _replay_session(ns: argparse.Namespace):
    from app.debugger.backends import ReplayBackend
    from app.debugger.replay import load
    from app.debugger.session import Session

    rec = load(ns.replay)
    return Session(ReplayBackend(rec), rec.kernel, history=(rec.tokens, rec.margins))


def _summary(session) -> int:
    def progress(pos: int) -> None:
        if pos % 50 == 0:
            _progress(f"token {pos - 1}")

    session.on_pass = progress
    stop = session.start()
    if stop.kind == "launch":
        stop = session.finish()
    f = session.frame(stop)
    k = session.kernel
    steps = f.step.index + 1 if f.step else 0
    print(f"kernel {k.program.kernel}: grid {k.grid} x block {k.block}, {steps} EXEC steps, {f.pos} tokens "
          f"({session.backend.label}): {stop.text}")
    if f.departure is not None:
        print(f"  the model departs from the interpreter at token {f.departure}: model "
              f"{f.tokens[f.departure]}, interpreter {f.expected}")
    for m in f.mismatches[:10]:
        print(f"  state mismatch {m.where}: model {m.model}, interpreter {m.interp}")
    for lw in f.lows[:10]:
        print(f"  low margin {lw.where}: {lw.margin:.2f}")
    bad = f.departure is not None or f.mismatches or f.lows or not f.done
    if not bad:
        print("  model = interpreter: every token and the final state")
    return 4 if bad else 0


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    ns, extra = parser.parse_known_args(argv)
    stray = [a for a in extra if a.startswith("-")]
    if stray:
        parser.error(f"unrecognized arguments: {' '.join(stray)}")
    ns.args = list(ns.args) + extra
    return exit_status("qgpu-debug", lambda: _dispatch(parser, ns))


def _dispatch(parser: argparse.ArgumentParser, ns: argparse.Namespace) -> int:
    if ns.replay and (ns.file or ns.args or ns.model or ns.record):
        raise LaunchError("--replay plays a recorded session: give no kernel file, arguments, --model or --record")
    if not ns.replay and not ns.file:
        parser.error("give a kernel file (qgpu-debug kernel.cu) or --replay FILE")
    if ns.file and "=" in ns.file and not Path(ns.file).exists():
        raise LaunchError(f"{ns.file!r} looks like an argument: give the kernel file first")
    if ns.record:
        parent = Path(ns.record).expanduser().resolve().parent
        if not parent.is_dir():
            raise LaunchError(f"--record {ns.record}: no such directory {parent}")
        if not os.access(parent, os.W_OK):
            raise LaunchError(f"--record {ns.record}: the directory is not writable")
    from app.debugger.keymap import load_keymap

    keymap = load_keymap(ns.keymap)
    if ns.replay:
        session = _replay_session(ns)
        if ns.no_ui:
            return _summary(session)
        return _run_app(lambda progress: session, keymap, ns, None, None)
    load, make_kernel, built = _model_session(ns)
    try:
        if ns.no_ui:
            return _summary(load(_progress))
        return _run_app(load, keymap, ns, make_kernel, ns.file)
    finally:
        s = built.get("session")
        if s is not None and s.recorder is not None:
            s.recorder.close()
            _progress(f"replay file written: {ns.record} ({s.recorder.tokens} tokens)")


def _run_app(load, keymap, ns, make_kernel, kernel_file) -> int:
    from app.debugger.app import DebugApp

    app = DebugApp(load, kernel_file=kernel_file, reload_kernel=make_kernel, keymap=keymap,
                   watch=not ns.no_watch, layout=ns.layout)
    app.run()
    for w in app.workers:
        if w.group == "engine":  # let a running forward pass finish before the record is closed
            w.cancel()
    return 0


def entry() -> None:
    sys.exit(main())
