"""Atomics as a read-modify-write in a *serial* block (the virtual CFG, before allocation).

``atom.OP d, [a + b], c`` applies to memory one lane after the other, in lane order
(docs/machine.md). The machine gets there without an atomic unit: the kernel compiler puts
the atomic alone in a block of its own that the machine runs **one lane at a time**
(``Block.serial``; the warp keeps its turn until every lane at the block ran it), and
expands it into what the block does for that lane::

    ld   d, [a + b]          ; the old value (the atomic's result)
    OP   t, d, c             ; the new one (add, min, max, and, or, xor; cas, inc, dec: a few ops)
    st   [a + b], t

Memory is read at one depth of a pass and written by the tokens after it, so each lane's
pass sees the writes of the lanes before it: the same values as the atomic in lane order,
and the same trace of stores. The serial block holds nothing else (another load or store
in it would see or make writes in a different order), jumps to the block after it, and
is never the entry block; a guarded atomic guards every instruction of its expansion.
"""

from __future__ import annotations

import dataclasses
import itertools

from compiler.cfg import VBlock, VProgram
from compiler.machine.isa import ZERO, Guard, Imm, Instr, Jump, Op, Pred, Reg

_names = itertools.count()


def _temp() -> Reg:
    return Reg(f"at{next(_names)}")


def _temp_pred() -> Pred:
    return Pred(f"atp{next(_names)}")


def expand(ins: Instr) -> list[Instr]:
    """The read-modify-write of one ``atom`` (virtual registers)."""
    space, _, op = ins.mod.partition(".")
    base, off, c, c2 = ins.srcs
    old = ins.dst if ins.dst not in (None, ZERO) else _temp()
    g = ins.guard
    out: list[Instr] = [Instr(Op.LD, old, (base, off), space, guard=g, line=ins.line)]

    def emit(o: Op, dst, srcs, mod: str = "", guard: Guard | None = g) -> None:
        out.append(Instr(o, dst, tuple(srcs), mod, guard=guard, line=ins.line))

    def store(value, guard: Guard | None = g) -> None:
        emit(Op.ST, None, (base, off, value), space, guard)

    simple = {"add": Op.ADD, "min.s": Op.MIN_S, "min.u": Op.MIN_U, "max.s": Op.MAX_S, "max.u": Op.MAX_U,
              "and": Op.AND, "or": Op.OR, "xor": Op.XOR}
    if op in simple:
        new = _temp()
        emit(simple[op], new, (old, c))
        store(new)
    elif op == "exch":
        store(c)
    elif op == "cas":  # swap in c2 where the old value equals c
        p = _temp_pred()
        emit(Op.SETP, p, (old, c), "eq")
        if g is not None:  # a guarded cas: lanes that skip it must not store
            guard = g.pred
            if g.negate:
                guard = _temp_pred()
                emit(Op.PNOT, guard, (g.pred,), guard=None)
            q = _temp_pred()
            emit(Op.PAND, q, (p, guard), guard=None)
            p = q
        store(c2, Guard(p))
    elif op == "inc":  # old >= c (unsigned) ? 0 : old + 1
        p, t, new = _temp_pred(), _temp(), _temp()
        emit(Op.SETP, p, (old, c), "hs")
        emit(Op.ADD, t, (old, Imm(1)))
        emit(Op.SELP, new, (Imm(0), t, p))
        store(new)
    elif op == "dec":  # old == 0 or old > c (unsigned) ? c : old - 1
        p, q, t, new = _temp_pred(), _temp_pred(), _temp(), _temp()
        emit(Op.SETP, p, (old, Imm(0)), "eq")
        emit(Op.SETP, q, (old, c), "hi")
        emit(Op.POR, p, (p, q))
        emit(Op.SUB, t, (old, Imm(1)))
        emit(Op.SELP, new, (c, t, p))
        store(new)
    else:
        raise AssertionError(f"no expansion for atom.{ins.mod}")
    return out


def serialize_atomics(prog: VProgram) -> VProgram:
    """Every ``atom`` into a serial block of its own, expanded (see the module docstring). A run
    of other instructions stays one block; consecutive atomics need nothing between them."""
    blocks: list[VBlock] = []
    for n, vb in enumerate(prog.blocks):
        runs: list[tuple[bool, list[Instr]]] = []
        for ins in vb.instrs:
            if ins.op is Op.ATOM:
                runs.append((True, expand(ins)))
            elif runs and not runs[-1][0]:
                runs[-1][1].append(ins)
            else:
                runs.append((False, [ins]))
        if not any(serial for serial, _ in runs):
            blocks.append(vb)
            continue
        if n == 0 and runs[0][0]:  # the entry block is never serial (every lane starts there together)
            runs.insert(0, (False, []))
        if runs[-1][0]:  # a serial block jumps to the next block: the terminator gets one of its own
            runs.append((False, []))
        labels = [vb.label] + [f"{vb.label}@{k}" for k in range(1, len(runs))]
        for k, (serial, instrs) in enumerate(runs):
            last = k == len(runs) - 1
            blocks.append(VBlock(labels[k], instrs, vb.term if last else Jump(labels[k + 1]),
                                 vb.ptx_line if k == 0 else (instrs[0].line if instrs else vb.ptx_line),
                                 serial=serial))
    return dataclasses.replace(prog, blocks=blocks)
