"""PTX ``prmt.b32`` (``__byte_perm``) as shifts, masks and ORs.

The circuit has no byte-permute unit: a direct one needs a one-hot of every selector nibble per
lane and a pass per (output byte, source byte), about a thousand neurons in a layer that is
already among the widest. The kernel compiler expands ``prmt`` instead (as it does division,
``compiler/isel_div.py``). ``compiler/machine/semantics.py`` keeps ``prmt`` as the definition
the expansion must meet; the interpreter still runs it, the compiler never emits it.

Semantics (default mode): the pool is the 8 bytes of ``{b, a}`` (a low); output byte k is pool
byte ``sel_k & 7`` of the selector nibble ``sel_k``, or, when ``sel_k & 8``, that byte's sign
bit copied into all 8 bits.

* **Constant selector** (the common case, ``__byte_perm(x, y, 0x5410)``): output bytes that
  move the same source by the same distance share one ``and`` and one shift; sign copies of one
  source byte share a ``shl``/``shr.s`` pair and an ``and``; the parts are ORed. The identity
  takes 1 instruction, a half-word pack (``0x5410``, ``0x7632``) 3, a byte reverse (``0x0123``)
  9, and no selector more than 15 (all 65536 counted in ``tests/test_prmt_lowering.py``).
  A selector in a PTX register written once, by a ``mov`` of an immediate (nvcc's usual form of
  ``__byte_perm(x, y, 0x5410)``), is this case too (``isel_alu.op_prmt``).
* **Selector in a register**: per output byte, the nibble's bits choose the source (``setp`` +
  ``selp``), the shift (``(sel >> (4k − 3)) & 24``) and the sign copy, then the byte is placed
  and ORed: 58 instructions for the four bytes.

Only the final write carries the PTX instruction's guard (like ``isel_div``).
"""

from __future__ import annotations

from compiler.isel_common import LowerCtx
from compiler.isel_div import FoldingSeq
from compiler.machine.isa import Guard, Imm, Op, Operand, Reg

MASK = 0xFFFFFFFF


def emit_prmt(c: LowerCtx, dst: Reg, a: Operand, b: Operand, sel: Operand, guard: Guard | None = None) -> None:
    """``dst = prmt(a, b, sel)`` (32-bit operands)."""
    seq = FoldingSeq(c)
    parts = _constant_parts(seq, a, b, sel.value) if isinstance(sel, Imm) else _register_parts(seq, a, b, sel)
    acc = parts[0]
    for p in parts[1:-1]:
        acc = seq.op(Op.OR, acc, p)
    if len(parts) == 1:
        seq.op(Op.MOV, acc, dst=dst, guard=guard)
    else:
        seq.op(Op.OR, acc, parts[-1], dst=dst, guard=guard)


def _shift(seq: FoldingSeq, x: Operand, by: int) -> Operand:
    """x << by for by >= 0, x >> by (logical) for by < 0."""
    if by == 0:
        return x
    return seq.op(Op.SHL, x, Imm(by)) if by > 0 else seq.op(Op.SHR_U, x, Imm(-by))


def _constant_parts(seq: FoldingSeq, a: Operand, b: Operand, sel: int) -> list[Operand]:
    moves: dict[tuple[int, int], int] = {}   # (source 0/1, bit distance) -> output mask
    copies: dict[tuple[int, int], int] = {}  # (source 0/1, source byte) -> output mask (sign copies)
    for k in range(4):
        v = (sel >> (4 * k)) & 0xF
        src, j = (v & 7) >> 2, v & 3
        table = copies if v & 8 else moves
        key = (src, j) if v & 8 else (src, 8 * (k - j))
        table[key] = table.get(key, 0) | (0xFF << (8 * k))
    srcs = (a, b)
    parts: list[Operand] = []
    for (s, dist), mask in moves.items():
        x = srcs[s]
        if dist >= 0:  # mask first, then shift up: the bits that would leave the word are masked
            part = _shift(seq, x if mask >> dist == MASK >> dist else seq.op(Op.AND, x, Imm(mask >> dist)), dist)
        else:
            moved = _shift(seq, x, dist)
            part = moved if (MASK >> -dist) & mask == (MASK >> -dist) else seq.op(Op.AND, moved, Imm(mask))
        parts.append(part)
    for (s, j), mask in copies.items():  # all ones where source byte j's top bit is set
        x = srcs[s]
        top = _shift(seq, x, 24 - 8 * j)
        fill = seq.op(Op.SHR_S, top, Imm(31))
        parts.append(fill if mask == MASK else seq.op(Op.AND, fill, Imm(mask)))
    return parts


def _register_parts(seq: FoldingSeq, a: Operand, b: Operand, sel: Operand) -> list[Operand]:
    parts: list[Operand] = []
    for k in range(4):
        nib = 4 * k
        sh = seq.op(Op.AND, _shift(seq, sel, 3 - nib), Imm(24))         # 8·(sel_k & 3)
        from_b = seq.setp("ne", seq.op(Op.AND, sel, Imm(4 << nib)), Imm(0))
        src = seq.selp(b, a, from_b)
        byte = seq.op(Op.AND, seq.op(Op.SHR_U, src, sh), Imm(0xFF))
        fill = seq.op(Op.AND, seq.op(Op.SHR_S, seq.op(Op.SHL, byte, Imm(24)), Imm(31)), Imm(0xFF))
        copy = seq.setp("ne", seq.op(Op.AND, sel, Imm(8 << nib)), Imm(0))
        parts.append(_shift(seq, seq.selp(fill, byte, copy), 8 * k))
    return parts
