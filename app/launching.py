"""Compile a kernel file and build its launch: shared by ``qgpu run`` and ``qgpu-debug``.

Launch configuration and arguments not given come from the file's ``// qgpu:`` header.
"""

from __future__ import annotations

from dataclasses import dataclass

from compiler.errors import LaunchError
from compiler.machine.config import MachineConfig
from compiler.machine.isa import Program
from engine.launch import Launch


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
