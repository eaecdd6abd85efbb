"""Compile a kernel file and build its launch: shared by ``qgpu run`` and ``qgpu-debug``.

Launch configuration and arguments not given come from the file's ``// qgpu:`` header. Every command
picks its machine the same way (:func:`machine_for`): a checkpoint's (``--model DIR``), else
``--machine N:B``, else the default machine (``compiler/machine/config.py``).
"""

from __future__ import annotations

import os
import sys
from dataclasses import dataclass
from typing import Callable

from compiler.errors import LaunchError, QgpuError
from compiler.machine.config import DEFAULT, MachineConfig, parse_machine
from compiler.machine.isa import Program
from engine.launch import Launch


MACHINE_HELP = (f"the machine to compile for, N:B = N instructions per block, a B-block ROM (default "
                f"{DEFAULT.name}, the default checkpoint's; with --model, the checkpoint's machine)")


def add_machine_option(p) -> None:
    p.add_argument("--machine", metavar="N:B", help=MACHINE_HELP)


def machine_for(model: str | os.PathLike | None, machine: str | None) -> MachineConfig:
    """The machine a command works on: the checkpoint's (``--model``), else ``--machine``, else the
    default. Both given and different: refused (the checkpoint implements one machine)."""
    try:
        asked = parse_machine(machine) if machine else None
    except ValueError as e:
        raise LaunchError(f"--machine: {e}") from None
    if model is None:
        return asked or DEFAULT
    import json
    from pathlib import Path

    from compiler.circuit.build import LAYOUT
    from compiler.machine.config import machine_from_json, same_machine

    layout = Path(model) / LAYOUT
    if not layout.is_file():
        raise LaunchError(f"{model} is not a qgpu checkpoint (no {LAYOUT}); build one with 'qgpu build --out {model}'")
    cfg = machine_from_json(json.loads(layout.read_text())["machine"])
    if asked is not None and not same_machine(asked, cfg):
        raise LaunchError(f"--machine {machine} but --model {model} implements {cfg.describe()}; give one of them")
    return cfg


def checkpoint_for(model: str | None, machine: str | None, progress: Callable[[str], None]):
    """The checkpoint directory of ``--model``, else the cached build of ``--machine`` (default: the
    default machine), built on first use."""
    from compiler.circuit.build import ensure_checkpoint

    cfg = machine_for(model, machine)
    return ensure_checkpoint(model, cfg, progress=progress)


@dataclass
class KernelLaunch:
    program: Program
    launch: Launch
    grid: int
    block: int
    args: dict[str, str]
    """The kernel arguments as given (NAME -> VALUES text), header and command line merged."""


def launch_for(file: str, kernel: str | None, grid: int | None, block: int | None, args: list[str],
               cfg: MachineConfig) -> KernelLaunch:
    """Compile ``file`` for ``cfg`` and lay out its launch; errors are QgpuErrors with file:line."""
    from compiler.kernel_compiler import compile_file
    from engine.launch import build_launch, parse_assignments, read_header

    hdr = read_header(file)
    prog = compile_file(file, kernel or hdr.kernel, cfg)
    assigned = parse_assignments(hdr.args)
    assigned.update(parse_assignments(args))
    grid = grid if grid is not None else hdr.grid
    block = block if block is not None else hdr.block
    if grid is None or block is None:
        raise LaunchError("give the launch configuration: --grid G --block B "
                          "(or put '// qgpu: --grid G --block B ...' in the file)")
    try:
        return KernelLaunch(prog, build_launch(prog, grid, block, assigned, cfg), grid, block, assigned)
    except LaunchError as e:
        e.file = e.file or file
        raise


def exit_status(program: str, body: Callable[[], int]) -> int:
    """Run a command's ``body`` and turn what escapes it into the exit status both CLIs document:
    a :class:`QgpuError` prints ``file:line: error: ...`` (and its detail) and returns its code,
    Ctrl-C 130, a closed pipe 0, and anything else is a bug in qgpu: one line (the traceback with
    ``QGPU_DEBUG=1``) and status 3."""
    try:
        return body()
    except QgpuError as e:
        print(f"{e.location()}error: {e.message}", file=sys.stderr)
        if e.detail:
            print(e.detail, file=sys.stderr)
        return e.exit_code
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        return 0
    except Exception as e:  # a bug in qgpu, not in the user's input
        if os.environ.get("QGPU_DEBUG"):
            raise
        print(f"{program}: internal error: {type(e).__name__}: {e}\n"
              "This is a bug in qgpu. Rerun with QGPU_DEBUG=1 to see the traceback, and report it.",
              file=sys.stderr)
        return 3
