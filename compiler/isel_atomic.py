"""Atomics as a read-modify-write in a *serial* block (the virtual CFG, before allocation).

``atom.OP d, [a + b], c`` applies to memory one lane after the other, in lane order
(docs/machine.md). The machine gets there without an atomic unit: the kernel compiler puts
the atomic alone in a block of its own that the machine runs **one lane at a time**
(``Block.serial``; the warp keeps its turn while its lanes are at serial blocks), and
expands it into what the block does for that lane (an expansion longer than a ROM block
goes on in serial blocks just below it: ``compiler/vcfg_to_blocks.py``)::

    ld   d, [a + b]          ; the old value (the atomic's result)
    OP   t, d, c             ; the new one (add, min, max, and, or, xor; cas, inc, dec: a few ops)
    st   [a + b], t

Memory is read at one depth of a pass and written by the tokens after it, so each lane's
pass sees the writes of the lanes before it: the same values as the atomic in lane order,
and the same trace of stores. The serial block holds no other load or store (it
would see or make writes in a different order; rematerialisation may put a ``param`` or ``sreg``
there, for the address), jumps to the block after it, and is never the entry block. A guarded atomic (``@p atom``, or one that if-conversion guarded)
becomes a branch around its serial block: the lanes where p is false skip it, exactly as
they skip the PTX instruction, and the expansion itself stays unguarded (guarded results
wait a slot, so a guarded expansion would not fit a short block).
"""

from __future__ import annotations

import dataclasses
import itertools

from compiler.cfg import VBlock, VProgram
from compiler.machine.isa import ZERO, Branch, Guard, Imm, Instr, Jump, Op, Pred, Reg

_names = itertools.count()


def _temp() -> Reg:
    return Reg(f"at{next(_names)}")


def _temp_pred() -> Pred:
    return Pred(f"atp{next(_names)}")


def expand(ins: Instr) -> list[Instr]:
    """The read-modify-write of one unguarded ``atom`` (virtual registers)."""
    assert ins.guard is None, "a guarded atomic is a branch around its serial block"
    space, _, op = ins.mod.partition(".")
    base, off, c, c2 = ins.srcs
    old = ins.dst if ins.dst not in (None, ZERO) else _temp()
    out: list[Instr] = [Instr(Op.LD, old, (base, off), space, line=ins.line)]

    def emit(o: Op, dst, srcs, mod: str = "", guard: Guard | None = None) -> None:
        out.append(Instr(o, dst, tuple(srcs), mod, guard=guard, line=ins.line))

    def store(value, guard: Guard | None = None) -> None:
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
    of other instructions stays one block; consecutive unguarded atomics need nothing between
    them; the block before a guarded one branches on its guard (an empty block where there is
    no other instruction to end)."""
    blocks: list[VBlock] = []
    for n, vb in enumerate(prog.blocks):
        runs: list[tuple[bool, list[Instr], Guard | None]] = []  # (serial, instructions, guard)
        for ins in vb.instrs:
            if ins.op is Op.ATOM:
                if ins.guard is not None and (not runs or runs[-1][0]):
                    runs.append((False, [], None))  # the block that branches around it
                runs.append((True, expand(dataclasses.replace(ins, guard=None)), ins.guard))
            elif runs and not runs[-1][0]:
                runs[-1][1].append(ins)
            else:
                runs.append((False, [ins], None))
        if not any(serial for serial, _, _ in runs):
            blocks.append(vb)
            continue
        if n == 0 and runs[0][0]:  # the entry block is never serial (every lane starts there together)
            runs.insert(0, (False, [], None))
        if runs[-1][0]:  # a serial block jumps to the next block: the terminator gets one of its own
            runs.append((False, [], None))
        labels = [vb.label] + [f"{vb.label}@{k}" for k in range(1, len(runs))]
        for k, (serial, instrs, _) in enumerate(runs):
            if k == len(runs) - 1:
                term = vb.term
            elif runs[k + 1][2] is not None:  # lanes whose guard is false skip the next (serial) block
                term = Branch(runs[k + 1][2], labels[k + 1], labels[k + 2])
            else:
                term = Jump(labels[k + 1])
            blocks.append(VBlock(labels[k], instrs, term,
                                 vb.ptx_line if k == 0 else (instrs[0].line if instrs else vb.ptx_line),
                                 serial=serial))
    return dataclasses.replace(prog, blocks=blocks)
