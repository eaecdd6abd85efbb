"""PTX IR -> virtual-register machine CFG (one pass: instruction selection).

Every PTX instruction becomes one or a few machine instructions on virtual
registers. 64-bit PTX values (addresses, ``mul.wide`` products) become 32-bit
halves: a first analysis finds which 64-bit registers ever need their upper half
(``hi_demanded``); for all others only the low half is computed, which is exact
because the low 32 bits of add/sub/mul/shl/logic results depend only on the low
32 bits of their operands, and addresses in a 126-word memory fit in 32 bits.
"""

from __future__ import annotations

import dataclasses
import re

from compiler.cfg import VBlock, VProgram, simplify
from compiler.isel_alu import AluOps
from compiler.isel_common import (
    BAR_RED_COUNTER, IGNORED_OPS, STACK_POINTERS, VOTE_NO, VOTE_YES, WIDE, LowerCtx, ptx_constants,
    spans_warps, type_of,
)
from compiler.isel_memory import MemoryOps
from compiler.isel_warp import WarpOps
from compiler.machine.isa import Barrier, Branch, Exit, Guard, Instr, Jump, Op, Reg
from compiler.ptx_parse import PAddr, PImm, PReg, PSpecial, PSym, PtxInstr, PtxKernel, PtxLabel, PVec

__all__ = ["hidden_shared", "lower_kernel"]

WIDE_OPS = frozenset({"mov", "cvta", "add", "sub", "mul", "and", "or", "xor", "not", "neg", "shl", "shr",
                      "setp", "selp", "cvt", "ld", "st", "atom", "red", "bfi"})
"""PTX ops whose 64-bit forms the lowering implements (both halves where needed)."""


def hidden_shared(kernel: PtxKernel) -> dict[str, int]:
    """Shared words (name -> bytes) the lowering itself needs: bar.red and wide votes."""
    out: dict[str, int] = {}
    consts = ptx_constants(kernel)
    for ins in kernel.body:
        if not isinstance(ins, PtxInstr):
            continue
        if ins.base == "bar" and "red" in ins.parts:
            out[BAR_RED_COUNTER] = 4
        if ins.base == "vote" and ins.operands:
            m = ins.operands[-1]
            mask = m.value if isinstance(m, PImm) else consts.get(m.name) if isinstance(m, PReg) else None
            if mask is not None and spans_warps(mask & 0xFFFFFFFF):
                out[VOTE_YES] = out[VOTE_NO] = 4
    return out


def _hi_demanded(kernel: PtxKernel) -> set[str]:
    """64-bit registers whose upper 32 bits can influence anything the kernel computes."""
    demanded: set[str] = set()
    changed = True
    instrs = [i for i in kernel.body if isinstance(i, PtxInstr)]
    while changed:
        changed = False

        def need(op) -> None:
            nonlocal changed
            if isinstance(op, PReg) and op.name.startswith("%rd") and op.name not in demanded:
                demanded.add(op.name)
                changed = True

        for ins in instrs:
            t = type_of(ins)
            if t not in WIDE or not ins.operands:
                continue
            base = ins.base
            dst = ins.operands[0]
            srcs = ins.operands[1:]
            dst_hi = isinstance(dst, PReg) and dst.name in demanded
            if base in ("setp", "min", "max", "div", "rem") or (base == "mul" and "hi" in ins.parts):
                for s in (srcs if base != "setp" else ins.operands[1:3]):
                    need(s)
            elif base == "shr" and not (len(srcs) > 1 and isinstance(srcs[1], PImm) and srcs[1].value == 0):
                need(srcs[0])
            elif base in ("add", "sub", "and", "or", "xor", "not", "neg", "mov", "cvta", "shl",
                          "mul", "selp", "mad", "bfi") and dst_hi:
                for s in srcs:
                    need(s)
            elif base == "st" and t in WIDE:
                need(ins.operands[1])
    return demanded


def _derived(kernel: PtxKernel, space: str) -> set[str]:
    """Registers that may hold an address in ``space`` (shared or local), flow-insensitively.

    Needed for generic ``ld``/``st``/``atom`` without a state space (clang; nvcc
    for stack arrays): an address computed from a ``__shared__`` variable or the
    stack pointer refers to that space.
    """
    def root(op) -> bool:
        if space == "local":
            return (isinstance(op, PReg) and op.name in STACK_POINTERS) or (
                isinstance(op, PSym) and op.name.startswith("__local_depot"))
        return (isinstance(op, PSym) and op.name in kernel.shared) or (
            isinstance(op, PAddr) and isinstance(op.base, PSym) and op.base.name in kernel.shared)

    found: set[str] = set()
    changed = True
    instrs = [i for i in kernel.body if isinstance(i, PtxInstr)]
    while changed:
        changed = False
        for ins in instrs:
            if not ins.operands or not isinstance(ins.operands[0], PReg):
                continue
            dst = ins.operands[0].name
            if dst in found:
                continue
            srcs = ins.operands[1:]
            converted = ins.base == "cvta" and space in ins.parts and "to" not in ins.parts
            if ins.base in ("mov", "add", "sub", "cvta", "cvt", "mad", "shl", "or", "and", "selp") and (
                    converted or any(root(x) or (isinstance(x, PReg) and x.name in found) for x in srcs)):
                found.add(dst)
                changed = True
    return found


class _Lowerer(AluOps, MemoryOps, WarpOps):
    """All op families; ``lower`` dispatches a PTX instruction to ``op_<opcode>``."""

    def lower(self, ins: PtxInstr) -> None:
        c = self.c
        c.ins = ins
        base = ins.base
        if base in IGNORED_OPS or (base == "bar" and "warp" in ins.parts):
            return
        if any(p in ("f16", "f16x2", "bf16", "bf16x2", "f32", "f64", "tf32") for p in ins.parts[1:]):
            raise c.err(f"floating-point instruction '{ins.opcode}' is not supported (integer kernels only)")
        fn = getattr(self, f"op_{base}", None)
        if fn is None:
            raise c.err(f"unsupported PTX instruction '{ins.opcode}'")
        if type_of(ins) in WIDE and base not in WIDE_OPS:
            raise self._unsupported_wide(ins)
        start = len(c.out)
        c.guarded_itself = False
        fn(ins)
        self._check_high_half(ins, start)
        if c.div_cache:  # a reciprocal (in fresh temporaries) holds while its divisor keeps its value
            written = {r for i in c.out[start:] for r in i.regs_written()}
            for key in [k for k in c.div_cache if k[1] in written]:
                del c.div_cache[key]
        g = self.guard(ins.guard)
        if g is not None and base not in ("bra", "ret", "exit") and not c.guarded_itself:
            for k in range(start, len(c.out)):
                i = c.out[k]
                if i.guard is not None:
                    raise c.err(f"guarded '{ins.opcode}' is not supported")
                c.out[k] = Instr(i.op, i.dst, i.srcs, i.mod, g, i.dst2, i.line)

    def _check_high_half(self, ins: PtxInstr, start: int) -> None:
        """A 64-bit destination whose upper half matters must have been given one.

        The safety net behind the per-op 64-bit code: an op that only computed the
        low half of such a register is refused instead of leaving garbage above it.
        """
        if ins.base in ("st", "red", "atom") or not ins.operands:
            return
        d = ins.operands[0]
        if isinstance(d, PReg) and d.name in self.c.hi:
            hi = Reg(d.name[1:] + ".hi")
            if not any(i.dst == hi for i in self.c.out[start:]):
                raise self._unsupported_wide(ins)

    def op_mov(self, ins: PtxInstr) -> None:
        c = self.c
        d, s = ins.operands
        if isinstance(d, PVec) or isinstance(s, PVec):
            raise c.err(f"'{ins.opcode}' packing or unpacking a vector is not supported")
        if type_of(ins) == "pred":
            c.emit(Op.PMOV, self.pred(d), (self.pred_src(s),))
            return
        if isinstance(s, PSpecial):
            self.sreg(self.dst(d), s)
            return
        c.emit(Op.MOV, self.dst(d), (self.lo(s),))
        dh = self.dst_hi(d)
        if dh is not None:
            c.emit(Op.MOV, dh, (self.hi(s),))

    def op_cvta(self, ins: PtxInstr) -> None:
        d, s = ins.operands
        self.c.emit(Op.MOV, self.dst(d), (self.lo(s),))
        dh = self.dst_hi(d)
        if dh is not None:
            self.c.emit(Op.MOV, dh, (self.hi(s),))

    def op_call(self, ins: PtxInstr) -> None:
        callee = ins.operands[0].name if ins.operands and isinstance(ins.operands[0], PSym) else "?"
        m = re.match(r"_Z(\d+)", callee)  # a C++ mangled name: _Z3fibi -> fib
        what = "printf" if callee == "vprintf" else callee[m.end():m.end() + int(m.group(1))] if m else callee
        raise self.c.err(f"call to '{what}' is not supported: the machine has no calls "
                         "(device functions must inline: no recursion, __noinline__ or printf)")


def lower_kernel(kernel: PtxKernel, filename: str, shared_offsets: dict[str, int],
                 native_ops: bool = False) -> VProgram:
    """Lower one PTX kernel to basic blocks of virtual-register machine instructions."""
    ctx = LowerCtx(kernel=kernel, filename=filename, shared_offsets=shared_offsets, consts=ptx_constants(kernel),
               hi=_hi_demanded(kernel), params={p.name: i for i, p in enumerate(kernel.params)},
               shared_ptrs=_derived(kernel, "shared"), local_ptrs=_derived(kernel, "local"),
               native_ops=native_ops)
    low = _Lowerer(ctx)
    for item in kernel.body:
        if isinstance(item, PtxInstr) and item.base == "call":
            ctx.ins = item
            low.op_call(item)
    blocks: list[VBlock] = []
    cur = VBlock("entry", ptx_line=kernel.line)
    counter = 0

    def close(term, next_label: str | None = None) -> None:
        nonlocal cur, counter
        ctx.div_cache.clear()  # reciprocals are shared only within a basic block
        cur.term = term
        blocks.append(cur)
        counter += 1
        cur = VBlock(next_label or f"{blocks[-1].label}+{counter}")

    def barrier_groups(groups: list[list[Instr]]) -> None:
        """Instruction groups with a CTA barrier between each two (bar.red, wide votes)."""
        for k, group in enumerate(groups):
            if k:
                nxt = f"L{ctx.ins.line}.{k}"
                close(Barrier(nxt), nxt)
            cur.instrs.extend(group)

    for item in kernel.body:
        if isinstance(item, PtxLabel):
            # the current block falls through into the labelled one; empty
            # jump-only blocks are threaded away by simplify()
            close(Jump(item.name), item.name)
            cur.ptx_line = item.line
            continue
        ctx.ins = item
        if not cur.instrs and not cur.ptx_line:
            cur.ptx_line = item.line
        base = item.base
        if base == "bra":
            target = item.operands[0]
            if not isinstance(target, PSym):
                raise ctx.err("indirect branches are not supported")
            cur.instrs.extend(ctx.out)
            ctx.out.clear()
            if item.guard is None:
                close(Jump(target.name))
            else:
                nxt = f"L{item.line}"
                close(Branch(low.guard(item.guard), target.name, nxt), nxt)
            continue
        if base in ("ret", "exit"):
            if item.guard is None:
                close(Exit())
            else:
                nxt = f"L{item.line}"
                close(Exit(low.guard(item.guard), nxt), nxt)
            continue
        if base in ("bar", "barrier") and "warp" not in item.parts:
            ctx.div_cache.clear()
            if "red" in item.parts:
                barrier_groups(low.bar_red(item))
                continue
            if "arrive" in item.parts or item.guard is not None or len(item.operands) > 1 or (
                    item.operands and not (isinstance(item.operands[0], PImm) and item.operands[0].value == 0)):
                raise ctx.err(f"'{item.opcode}' with a guard, a barrier id other than 0 or a thread count "
                              "is not supported (use __syncthreads())")
            nxt = f"L{item.line}"
            close(Barrier(nxt), nxt)
            continue
        if low.is_wide_vote(item):
            ctx.div_cache.clear()
            if item.guard is not None:
                raise ctx.err(f"guarded '{item.opcode}' across 4-lane warps is not supported")
            barrier_groups(low.wide_vote(item))
            continue
        if item.guard is not None and base in ("shfl", "vote"):
            # which lanes *execute* a shuffle or vote matters, and the circuit has no guarded
            # cross-lane op: lanes whose guard is false branch around it, as they skip it in PTX
            g = low.guard(item.guard)
            body, after = f"L{item.line}.g", f"L{item.line}.j"
            close(Branch(Guard(g.pred, not g.negate), after, body), body)
            low.lower(dataclasses.replace(item, guard=None))
            cur.instrs.extend(ctx.out)
            ctx.out.clear()
            close(Jump(after), after)
            continue
        low.lower(item)
        cur.instrs.extend(ctx.out)
        ctx.out.clear()
    close(Exit())  # falling off the end of a kernel is an implicit exit
    return simplify(VProgram(blocks))

