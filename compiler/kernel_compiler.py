"""Driver of the kernel compiler: CUDA file -> PTX -> machine blocks (a :class:`Program`).

Passes, each in its own module:
``cuda_to_ptx`` -> ``ptx_parse`` -> ``ptx_to_vcfg`` (instruction selection) ->
``ifconvert`` (short branches to guards) -> ``regalloc`` (r1..r15, p0..p3) ->
``vcfg_to_blocks`` (split to per-pass limits, number).
"""

from __future__ import annotations

import re
from pathlib import Path

from compiler.block_temps import mark_temps
from compiler.cuda_to_ptx import CudaKernel, cuda_to_ptx, kernel_signatures, ptx_entry_for
from compiler.errors import CompileError
from compiler.ifconvert import BASIC, FULL, NONE, if_convert
from compiler.isel_atomic import serialize_atomics
from compiler.machine.config import DEFAULT, MachineConfig
from compiler.machine.isa import ParamInfo, Program
from compiler.ptx_parse import PtxInstr, PtxKernel, parse_ptx
from compiler.ptx_to_vcfg import hidden_shared, lower_kernel
from compiler.regalloc import RegisterPressure, allocate
from compiler.vcfg_to_blocks import RomOverflow
from compiler.remat import rematerialise
from compiler.trace_cost import estimated_tokens
from compiler.vcfg_to_blocks import split_blocks


def compile_file(path: str | Path, kernel: str | None = None, cfg: MachineConfig = DEFAULT) -> Program:
    p = Path(path)
    try:
        source = p.read_text()
    except FileNotFoundError:
        raise CompileError("no such file", file=str(path)) from None
    except (OSError, UnicodeDecodeError) as e:
        raise CompileError(f"cannot read the file: {e}", file=str(path)) from None
    return compile_cuda(source, str(path), kernel, cfg)


def select_kernel(kernels: list[CudaKernel], kernel: str | None, filename: str) -> CudaKernel:
    if not kernels:
        raise CompileError("no __global__ kernel found", file=filename)
    if kernel is None:
        if len(kernels) > 1:
            names = ", ".join(k.name for k in kernels)
            raise CompileError(f"the file has several kernels ({names}): choose one with --kernel",
                               file=filename)
        return kernels[0]
    for k in kernels:
        if k.name == kernel:
            return k
    names = ", ".join(k.name for k in kernels)
    raise CompileError(f"no kernel named '{kernel}' (the file has: {names})", file=filename)


def compile_cuda(source: str, filename: str, kernel: str | None = None,
                 cfg: MachineConfig = DEFAULT) -> Program:
    """Compile one kernel of a CUDA file.

    If the kernel does not fit the machine (registers or ROM), it is compiled
    again with loop unrolling off (nvcc unrolls loops of unknown trip count by
    4, which costs registers and blocks the 4-lane machine does not have), and
    as a last resort with values spilled to local memory.
    """
    ck = select_kernel(kernel_signatures(source, filename), kernel, filename)
    first: CompileError | None = None
    # Division and byte permutes are expanded into ops the circuit has (compiler/isel_div.py,
    # isel_prmt.py); a program that fits no other way keeps the machine's div/rem/prmt ops (the
    # interpreter runs them; the model backend reports them as unsupported).
    for native_ops in (False, True):
        if native_ops and not _expands(first):
            break
        for allow_spill in (False, True):
            for unroll in UNROLL_LEVELS:
                try:
                    return _compile_once(source, filename, ck, cfg, unroll, allow_spill, native_ops)
                except (RegisterPressure, RomOverflow) as e:
                    first = first or e
                    last = e
                except CompileError:
                    if first is None:
                        raise
                    raise first from None  # rolling the loops broke something else: report the original
    if type(last) is not type(first):
        first.message += f" (with loop unrolling off and spilling: {last.message})"
    else:
        first.message += " (also with loop unrolling off and spilling)"
    raise first from None


UNROLL_LEVELS = ("default", "rolled", "none")
"""Tried in order: nvcc's own unrolling, then loops without a pragma kept rolled,
then every loop kept rolled (the kernel's own unroll pragmas overridden)."""


def _expands(err: CompileError | None) -> bool:
    """Does the PTX of a failed compile contain an op the compiler expands (div, rem, prmt, atomics and
    the votes and barrier reductions that use atomics)?"""
    return bool(err is not None and re.search(r"^\s*(@\S+\s+)?(div|rem|prmt|atom|red|vote|bar\.red|barrier\.red)\.",
                                              getattr(err, "ptx", None) or "", re.M))


def _compile_once(source: str, filename: str, ck: CudaKernel, cfg: MachineConfig, unroll: str,
                  allow_spill: bool = False, native_ops: bool = False) -> Program:
    ptx = cuda_to_ptx(source, filename, unroll=unroll)
    module = parse_ptx(ptx, filename + ".ptx")
    entry = ptx_entry_for(ck.name, [k.name for k in module.kernels])
    if entry is None:
        raise CompileError(f"the compiler produced no PTX entry for kernel '{ck.name}' "
                           "(templates and overloaded kernels are not supported)", file=filename, line=ck.line)
    pk = next(k for k in module.kernels if k.name == entry)
    if len(pk.params) != len(ck.params):
        raise CompileError(f"kernel '{ck.name}': {len(ck.params)} parameters in the source but "
                           f"{len(pk.params)} in the PTX", file=filename, line=ck.line)
    params = [ParamInfo(cp.name, cp.ctype, cp.is_pointer, cp.unsigned) for cp in ck.params]
    try:
        program = compile_ptx_kernel(pk, params, cfg, filename + ".ptx", module.globals, allow_spill,
                                     native_ops)
    except CompileError as e:
        err = _at_cuda_line(e, pk, filename, source, module.globals)
        err.ptx = ptx
        raise err from None
    program.kernel = ck.name
    program.ptx = ptx
    program.source = source
    program.source_path = filename
    program.unroll = unroll
    return program


def compile_ptx_kernel(pk: PtxKernel, params: list[ParamInfo], cfg: MachineConfig,
                       ptx_name: str, module_globals=(), allow_spill: bool = False,
                       native_ops: bool = False) -> Program:
    """The PTX half of the pipeline, usable on hand-written PTX in tests. ``native_ops``:
    keep div/rem/prmt as machine ops instead of their expansions (see ``compile_cuda``)."""
    for name, line in module_globals:
        raise CompileError(f"global variable '{name}' is not supported (__device__ and __constant__ "
                           "variables: pass the data as kernel parameters)", file=ptx_name, line=line)
    shared_offsets: dict[str, int] = {}
    offset = 0
    shared = dict(pk.shared) | hidden_shared(pk)
    for name, size in shared.items():
        align = max(4, pk.shared_align.get(name, 4))
        offset = (offset + align - 1) // align * align
        shared_offsets[name] = offset
        offset += size
    shared_words = (offset + 3) // 4
    cuda_of = {i.line: i.cuda_line for i in pk.body if isinstance(i, PtxInstr) and i.cuda_line}
    programs = []
    for blocks, regs_used, preds_used, spill_words, spill_at in _allocate_and_split(
            pk, cfg, ptx_name, shared_offsets, allow_spill, native_ops):
        for b in blocks:
            b.cuda_lines = tuple(sorted({cuda_of[line] for line in b.ptx_lines if line in cuda_of}))
        programs.append(mark_temps(Program(
            kernel=pk.name, blocks=blocks, params=params, shared_words=shared_words,
            local_words=spill_at // 4 + spill_words, spill_words=spill_words, regs_used=regs_used,
            preds_used=preds_used, shared_symbols=shared_offsets, cuda_line_of=cuda_of, machine=cfg)))
    return min(programs, key=estimated_tokens)  # the first (no rematerialisation) on a tie


# Back off when registers run out: less if-conversion, then recompute constants at their uses
# (rematerialisation), then both; with allow_spill, spill as a last resort.
_PLAIN = ((FULL, False), (BASIC, False))
_REMAT = ((FULL, True), (BASIC, True), (NONE, True))


def _allocate_and_split(pk: PtxKernel, cfg: MachineConfig, ptx_name: str, shared_offsets: dict[str, int],
                        allow_spill: bool, native_ops: bool) -> list[tuple]:
    """The machine blocks of the first way in ``_PLAIN`` that fits and of the first in ``_REMAT``:
    rematerialising launch constants frees registers and often saves the writeback tokens of
    their copies, but its extra instructions can cost blocks in loops, so the caller keeps the
    one with fewer estimated trace tokens (compiler/trace_cost.py). Spilling only when nothing
    else fits. Each item: (blocks, regs_used, preds_used, spill_words, spill_at)."""
    spill_at = (pk.local_bytes + 3) // 4 * 4
    found: list[tuple] = []
    errors: list[CompileError] = []
    for group in (_PLAIN, _REMAT):
        try:
            spill = allow_spill and group is _REMAT and not found
            found.append((*_first_fit(group, pk, cfg, ptx_name, shared_offsets, native_ops,
                                      spill_at if spill else None), spill_at))
        except (RegisterPressure, RomOverflow) as e:
            errors.append(e)
    if not found:  # as before the choice: the plain program's ROM overflow, else the last attempt's error
        raise errors[0] if isinstance(errors[0], RomOverflow) else errors[-1]
    return found


def _first_fit(group, pk: PtxKernel, cfg: MachineConfig, ptx_name: str, shared_offsets: dict[str, int],
               native_ops: bool, spill_at: int | None):
    """The first way of ``group`` whose registers fit (spilling at ``spill_at`` in its last way
    when given): (machine blocks, regs_used, preds_used, spill_words)."""
    for k, (level, remat) in enumerate(group):
        vprog = if_convert(lower_kernel(pk, ptx_name, shared_offsets, native_ops), level)
        if not native_ops:
            vprog = serialize_atomics(vprog)
        if remat:
            vprog = rematerialise(vprog)
        last = k == len(group) - 1
        try:
            vprog, regs_used, preds_used, spill_words = allocate(
                vprog, cfg, ptx_name, spill_at if last else None)
        except RegisterPressure:
            if last:
                raise
            continue
        return split_blocks(vprog, cfg, ptx_name), regs_used, preds_used, spill_words
    raise AssertionError("unreachable: the last way raises")


def _at_cuda_line(e: CompileError, pk: PtxKernel, filename: str, source: str,
                  module_globals=()) -> CompileError:
    """Point a PTX-level error at the CUDA line it came from (kept: the PTX line)."""
    if e.file != filename + ".ptx":
        return e
    if e.line is None:  # about the whole program (e.g. ROM size): the CUDA file itself
        return type(e)(e.message, file=filename, detail=e.detail)
    cuda = {i.line: i.cuda_line for i in pk.body if isinstance(i, PtxInstr)}.get(e.line)
    for name, line in module_globals:  # module-level: find the declaration in the source
        if line == e.line:
            cuda = next((n for n, text in enumerate(source.splitlines(), 1)
                         if re.search(rf"\b{re.escape(name)}\b", text)), None)
    where = f"PTX line {e.line}: 'qgpu compile {filename}' shows the PTX"
    return type(e)(f"{e.message} ({where})", file=filename, line=cuda or None, detail=e.detail)
