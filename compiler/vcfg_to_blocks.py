"""Allocated CFG -> ROM blocks: split basic blocks to the per-pass limits, number them.

Blocks keep PTX text order, so a block's index (its PC) grows along the source;
the interpreter's reconvergence rule (run the lowest PC first) relies on that. The one
exception is an atomic's read-modify-write too long for one block: its parts go in
*descending* order (docs/machine.md, "Atomics"), so the part a lane goes on to is always the
warp's lowest block and runs next, for that lane alone.
"""

from __future__ import annotations

import dataclasses

from compiler.cfg import VProgram
from compiler.errors import CompileError
from compiler.machine.config import MachineConfig
from compiler.regalloc import physical, live_after_each, liveness
from compiler.machine.isa import ZERO, Barrier, Block, Branch, Exit, Imm, Instr, Jump, Op, Reg, Terminator


class RomOverflow(CompileError):
    """The program needs more blocks than the ROM holds."""


def _fits(chunk: list[Instr], ins: Instr, live_after: set, cfg: MachineConfig) -> bool:
    """Can ``ins`` join ``chunk``? ``live_after``: registers live right after ``ins``.

    Only results still needed after the block count as register writes: a value
    produced and consumed inside one pass is forwarded in the residual stream and
    never written back.
    """
    lim = cfg.block
    new = chunk + [ins]
    if len(new) > lim.max_instrs:
        return False
    writes = {d for i in new for d in i.regs_written() if d != ZERO} & live_after
    if len(writes) > lim.max_reg_writes:
        return False
    mem = [i for i in new if i.op in (Op.LD, Op.ST, Op.ATOM)]
    if len(mem) > lim.max_mem_ops:
        return False
    stores = [i for i in new if i.op in (Op.ST, Op.ATOM)]
    if len(stores) > lim.max_stores or sum(i.op is Op.ATOM for i in new) > lim.max_atomics:
        return False
    if ins.op in (Op.LD, Op.ATOM) and any(i.op in (Op.ST, Op.ATOM) for i in chunk):
        return False  # memory is read before the pass's writes land
    if ins.op in (Op.LD, Op.ATOM) and set(ins.srcs[:2]) & _loaded(chunk):
        return False  # memory is read at one depth: no address computed from a load of the same pass
    return True


LATENT = (Op.MUL, Op.MULHI_S, Op.MULHI_U, Op.SHFL, Op.VOTE)
"""Ops whose register result the circuit has ready only two slots later (compiler/circuit/alu_mul.py,
alu_warp.py)."""
NOP = Instr(Op.MOV, ZERO, (ZERO,))
"""The filler of a latency gap: writes r0, which always reads 0."""


def _bubbles(chunk: list[Instr], ins: Instr, cfg: MachineConfig) -> list[Instr]:
    """The no-ops ``ins`` needs in front of it so that it reads no multiply, shuffle or guarded result
    early (``BlockLimits.mul_latency``). A guarded instruction also reads its destination:
    lanes that skip it keep the old value."""
    reads = set(ins.regs_read()) | (set(ins.regs_written()) if ins.guard is not None else set())
    need = 0
    for back in range(1, min(cfg.block.mul_latency, len(chunk) + 1)):
        prev = chunk[-back]
        latent = (prev.op in LATENT and isinstance(prev.dst, Reg)) or prev.guard is not None
        if latent and prev.dst != ZERO and prev.dst in reads:
            need = max(need, cfg.block.mul_latency - back)
    return [dataclasses.replace(NOP, line=ins.line)] * need


def _loaded(chunk: list[Instr]) -> set:
    """Registers whose value in ``chunk`` depends on a load or atomic of ``chunk``."""
    derived: set = set()
    for i in chunk:
        from_memory = i.op in (Op.LD, Op.ATOM) or any(s in derived for s in i.regs_read())
        for d in i.regs_written():
            if from_memory:
                derived.add(d)
            elif i.guard is None:
                derived.discard(d)
    return derived


def _constant(ins: Instr) -> bool:
    """Does ``ins`` produce a launch constant (a rematerialised copy, compiler/remat.py)?"""
    return ins.guard is None and (ins.op in (Op.PARAM, Op.SREG)
                                  or (ins.op is Op.MOV and isinstance(ins.srcs[0], Imm)))


def _starts_next(chunk: list[Instr], instrs: list[Instr], after: list[set], k: int,
                 cfg: MachineConfig) -> bool:
    """Should instruction k, a launch constant that later instructions read, open the next block
    instead of closing this one? Yes when the instruction after it would not fit this block: the
    constant would only be read in the next block, so it would travel there as a register
    written back (tokens for every lane); computed there, it is a temporary."""
    ins = instrs[k]
    if not chunk or k + 1 >= len(instrs) or not _constant(ins) or ins.dst not in after[k]:
        return False
    with_it = chunk + [ins]
    nxt = instrs[k + 1]
    return not _fits(with_it + _bubbles(with_it, nxt, cfg), nxt, after[k + 1], cfg)


def split_blocks(prog: VProgram, cfg: MachineConfig, filename: str) -> list[Block]:
    pieces: list[tuple[str, list[Instr], Terminator | None, int, bool, int | None]] = []
    """(label, instructions, terminator — None: go on to the next part —, PTX line, serial, index of
    the part it goes on to when that is not the next one)."""
    first_of: dict[str, int] = {}
    live_in = liveness(prog, tracked=physical)
    for vb in prog.blocks:
        chunks: list[list[Instr]] = [[]]
        after = live_after_each(vb, live_in, tracked=physical)
        for k, (ins, live) in enumerate(zip(vb.instrs, after)):
            gap = _bubbles(chunks[-1], ins, cfg)
            if not _fits(chunks[-1] + gap, ins, live, cfg) or _starts_next(chunks[-1] + gap, vb.instrs, after, k, cfg):
                if not chunks[-1]:
                    raise CompileError(f"instruction '{ins}' alone exceeds the per-block limits",
                                       file=filename, line=ins.line)
                chunks.append([])
                gap = []
            chunks[-1] += gap + [ins]
        names = [vb.label if k == 0 else f"{vb.label}.{k}" for k in range(len(chunks))]
        if vb.serial and len(chunks) > 1:
            # a read-modify-write in parts: the first part at the highest index, each part going
            # on to the one just below it (the warp's lowest block, so it runs next), the last
            # part to the block after the first
            n = len(pieces)
            first_of[vb.label] = n + len(chunks) - 1
            for k in reversed(range(len(chunks))):
                last = k == len(chunks) - 1
                pieces.append((names[k], chunks[k], vb.term if last else None, vb.ptx_line, True,
                               None if last else n + len(chunks) - 2 - k))
            continue
        first_of[vb.label] = len(pieces)
        for k, chunk in enumerate(chunks):
            last = k == len(chunks) - 1
            pieces.append((names[k], chunk, vb.term if last else None, vb.ptx_line, vb.serial, None))
    if len(pieces) > cfg.rom_blocks:
        raise RomOverflow(
            f"the program needs {len(pieces)} blocks but the ROM holds {cfg.rom_blocks} "
            f"(over by {len(pieces) - cfg.rom_blocks})", file=filename,
            detail="Make the kernel smaller: fewer branches, '#pragma unroll 1' on loops.")

    def idx(label) -> int:
        return first_of[str(label)]

    blocks = []
    for i, (label, chunk, term, line, serial, goes_on) in enumerate(pieces):
        if term is None:
            t: Terminator = Jump(i + 1 if goes_on is None else goes_on)
        elif isinstance(term, Jump):
            t = Jump(idx(term.target))
        elif isinstance(term, Branch):
            t = Branch(term.guard, idx(term.target), idx(term.fallthrough))
        elif isinstance(term, Barrier):
            t = Barrier(idx(term.target))
        else:
            assert isinstance(term, Exit)
            t = Exit(term.guard, idx(term.fallthrough) if term.fallthrough is not None else None)
        ptx_lines = tuple(sorted({ins.line for ins in chunk if ins.line})) or ((line,) if line else ())
        blocks.append(Block(i, chunk, t, ptx_lines=ptx_lines, label=label, serial=serial))
        if serial:  # the lanes that ran it wait above it while the others run it (or its next part, below)
            assert i > 0 and isinstance(t, Jump) and (t.target > i or (goes_on == i - 1 and pieces[i - 1][4])), \
                f"serial block {label} must follow the entry and go on to a serial part just below it or above it"
    return blocks
