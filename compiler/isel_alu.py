"""Integer ALU PTX ops -> machine ops: arithmetic, 64-bit halves with carries, bits, compares, conversions."""

from __future__ import annotations

from compiler.isel_common import (
    SIGNED_CMP, UNSIGNED_CMP, WIDE, LowererBase, is_signed, type_of,
)
from compiler.isel_div import emit_divrem
from compiler.isel_prmt import emit_prmt
from compiler.machine.isa import Imm, Op, Pred
from compiler.ptx_parse import PImm, PPair, PReg, PtxInstr


class AluOps(LowererBase):
    def _alu2(self, ins: PtxInstr, op: Op) -> None:
        d, a, b = ins.operands
        if op in (Op.ADD, Op.SUB, Op.AND, Op.OR, Op.XOR, Op.SHL, Op.MUL):
            self.c.emit(op, self.dst(d), (self.lo(a), self.lo(b)))
        else:  # the result depends on bits above a narrow type's width
            t = type_of(ins)
            self.c.emit(op, self.dst(d), (self.narrow(a, t), self.narrow(b, t)))

    def op_add(self, ins: PtxInstr) -> None:
        if "cc" in ins.parts or ins.opcode.startswith("addc"):
            raise self.c.err(f"'{ins.opcode}' (carry chains) is not supported")
        self._addsub(ins, Op.ADD)

    def op_sub(self, ins: PtxInstr) -> None:
        if "cc" in ins.parts:
            raise self.c.err(f"'{ins.opcode}' (carry chains) is not supported")
        self._addsub(ins, Op.SUB)

    def _addsub(self, ins: PtxInstr, op: Op) -> None:
        c = self.c
        d, a, b = ins.operands
        if not self._wide(ins) or self.dst_hi(d) is None:
            self._alu2(ins, op)
            return
        # 64-bit with the upper half needed: explicit carry / borrow
        lo_t, carry_p, carry, hi_t = c.temp(), c.temp_pred(), c.temp(), c.temp()
        c.emit(op, lo_t, (self.lo(a), self.lo(b)))
        if op is Op.ADD:
            c.emit(Op.SETP, carry_p, (lo_t, self.lo(a)), "lo")
        else:
            c.emit(Op.SETP, carry_p, (self.lo(a), self.lo(b)), "lo")
        c.emit(Op.SELP, carry, (Imm(1), Imm(0), carry_p))
        c.emit(op, hi_t, (self.hi(a), self.hi(b)))
        c.emit(op, self.dst_hi(d), (hi_t, carry))
        c.emit(Op.MOV, self.dst(d), (lo_t,))

    def _bitwise(self, ins: PtxInstr, op: Op) -> None:
        c = self.c
        if type_of(ins) == "pred":
            pop = {Op.AND: Op.PAND, Op.OR: Op.POR, Op.XOR: Op.PXOR}[op]
            d, a, b = ins.operands
            c.emit(pop, self.pred(d), (self.pred_src(a), self.pred_src(b)))
            return
        self._alu2(ins, op)
        d, a, b = ins.operands
        dh = self.dst_hi(d) if self._wide(ins) else None
        if dh is not None:
            c.emit(op, dh, (self.hi(a), self.hi(b)))

    def op_and(self, ins: PtxInstr) -> None:
        self._bitwise(ins, Op.AND)

    def op_or(self, ins: PtxInstr) -> None:
        self._bitwise(ins, Op.OR)

    def op_xor(self, ins: PtxInstr) -> None:
        self._bitwise(ins, Op.XOR)

    def op_not(self, ins: PtxInstr) -> None:
        c = self.c
        d, a = ins.operands
        if type_of(ins) == "pred":
            c.emit(Op.PNOT, self.pred(d), (self.pred_src(a),))
            return
        c.emit(Op.NOT, self.dst(d), (self.lo(a),))
        dh = self.dst_hi(d) if self._wide(ins) else None
        if dh is not None:
            c.emit(Op.NOT, dh, (self.hi(a),))

    def op_cnot(self, ins: PtxInstr) -> None:
        c = self.c
        d, a = ins.operands
        p = c.temp_pred()
        c.emit(Op.SETP, p, (self.narrow(a, type_of(ins)), Imm(0)), "eq")
        c.emit(Op.SELP, self.dst(d), (Imm(1), Imm(0), p))

    def _unary(self, ins: PtxInstr, op: Op) -> None:
        if self._wide(ins) and ins.base not in ("popc", "clz", "brev"):
            d = ins.operands[0]
            if self.dst_hi(d) is not None:
                raise self._unsupported_wide(ins)
        if self._wide(ins) and ins.base in ("popc", "clz", "brev"):
            raise self._unsupported_wide(ins)
        d, a = ins.operands
        # |x| of a narrow value depends on its sign bit: extend it first
        src = self.narrow(a, type_of(ins)) if op is Op.ABS else self.lo(a)
        self.c.emit(op, self.dst(d), (src,))

    def op_neg(self, ins: PtxInstr) -> None:
        self._unary(ins, Op.NEG)

    def op_abs(self, ins: PtxInstr) -> None:
        self._unary(ins, Op.ABS)

    def op_popc(self, ins: PtxInstr) -> None:
        self._unary(ins, Op.POPC)

    def op_clz(self, ins: PtxInstr) -> None:
        self._unary(ins, Op.CLZ)

    def op_brev(self, ins: PtxInstr) -> None:
        self._unary(ins, Op.BREV)

    def op_mul(self, ins: PtxInstr) -> None:
        c = self.c
        d, a, b = ins.operands
        t = type_of(ins)
        if t in ("s16", "u16") and ("wide" in ins.parts or "hi" in ins.parts):
            if "hi" in ins.parts:
                raise c.err(f"'{ins.opcode}' is not supported")
            c.emit(Op.MUL, self.dst(d), (self.narrow(a, t), self.narrow(b, t)))
            return
        if "wide" in ins.parts:
            dh = self.dst_hi(d)
            if dh is None:
                c.emit(Op.MUL, self.dst(d), (self.lo(a), self.lo(b)))
            else:
                lo_t = c.temp()
                c.emit(Op.MUL, lo_t, (self.lo(a), self.lo(b)))
                c.emit(Op.MULHI_S if is_signed(t) else Op.MULHI_U, dh, (self.lo(a), self.lo(b)))
                c.emit(Op.MOV, self.dst(d), (lo_t,))
            return
        if "hi" in ins.parts:
            if t in WIDE:
                raise self._unsupported_wide(ins)
            c.emit(Op.MULHI_S if is_signed(t) else Op.MULHI_U, self.dst(d), (self.lo(a), self.lo(b)))
            return
        dh = self.dst_hi(d) if t in WIDE else None
        if dh is None:
            c.emit(Op.MUL, self.dst(d), (self.lo(a), self.lo(b)))
            return
        lo_t, h1, h2 = c.temp(), c.temp(), c.temp()
        c.emit(Op.MUL, lo_t, (self.lo(a), self.lo(b)))
        c.emit(Op.MULHI_U, h1, (self.lo(a), self.lo(b)))
        c.emit(Op.MUL, h2, (self.lo(a), self.hi(b)))
        c.emit(Op.ADD, h1, (h1, h2))
        c.emit(Op.MUL, h2, (self.hi(a), self.lo(b)))
        c.emit(Op.ADD, dh, (h1, h2))
        c.emit(Op.MOV, self.dst(d), (lo_t,))

    def op_mul24(self, ins: PtxInstr) -> None:
        """``mul24.lo``/``.hi``: the 48-bit product of the low 24 bits (sign- or zero-extended)."""
        c = self.c
        d, a, b = ins.operands
        signed = is_signed(type_of(ins))
        x, y = c.temp(), c.temp()
        for dst, src in ((x, a), (y, b)):
            if signed:
                c.emit(Op.SHL, dst, (self.lo(src), Imm(8)))
                c.emit(Op.SHR_S, dst, (dst, Imm(8)))
            else:
                c.emit(Op.AND, dst, (self.lo(src), Imm(0xFFFFFF)))
        if "hi" not in ins.parts:
            c.emit(Op.MUL, self.dst(d), (x, y))
            return
        low, high = c.temp(), c.temp()  # bits 47..16 of the product
        c.emit(Op.MUL, low, (x, y))
        c.emit(Op.MULHI_S if signed else Op.MULHI_U, high, (x, y))
        c.emit(Op.SHR_U, low, (low, Imm(16)))
        c.emit(Op.SHL, high, (high, Imm(16)))
        c.emit(Op.OR, self.dst(d), (low, high))

    def op_mad(self, ins: PtxInstr) -> None:
        c = self.c
        d, a, b, e = ins.operands
        t = type_of(ins)
        if t in WIDE or "wide" in ins.parts or "cc" in ins.parts:
            raise c.err(f"'{ins.opcode}' is not supported (64-bit multiply-add)")
        tmp = c.temp()
        if "hi" in ins.parts:
            c.emit(Op.MULHI_S if is_signed(t) else Op.MULHI_U, tmp, (self.lo(a), self.lo(b)))
        else:
            c.emit(Op.MUL, tmp, (self.lo(a), self.lo(b)))
        c.emit(Op.ADD, self.dst(d), (tmp, self.lo(e)))

    def op_div(self, ins: PtxInstr) -> None:
        self._divrem(ins, rem=False)

    def op_rem(self, ins: PtxInstr) -> None:
        self._divrem(ins, rem=True)

    def _divrem(self, ins: PtxInstr, rem: bool) -> None:
        """The circuit has no divider: a straight-line multiply sequence (compiler/isel_div.py),
        unless the program is compiled with the machine's own ops (``LowerCtx.native_ops``)."""
        self._narrow_only(ins)
        if self.c.native_ops:
            signed = is_signed(type_of(ins))
            self._alu2(ins, (Op.REM_S if signed else Op.REM_U) if rem else (Op.DIV_S if signed else Op.DIV_U))
            return
        d, a, b = ins.operands
        t = type_of(ins)
        emit_divrem(self.c, self.dst(d), self.narrow(a, t), self.narrow(b, t), is_signed(t), rem,
                    self.guard(ins.guard))
        self.c.guarded_itself = True  # only the result is guarded: ~30 guarded steps would each wait a slot

    def op_min(self, ins: PtxInstr) -> None:
        self._narrow_only(ins)
        self._alu2(ins, Op.MIN_S if is_signed(type_of(ins)) else Op.MIN_U)

    def op_max(self, ins: PtxInstr) -> None:
        self._narrow_only(ins)
        self._alu2(ins, Op.MAX_S if is_signed(type_of(ins)) else Op.MAX_U)

    def op_shl(self, ins: PtxInstr) -> None:
        c = self.c
        d, a, b = ins.operands
        dh = self.dst_hi(d) if self._wide(ins) else None
        if dh is None:
            c.emit(Op.SHL, self.dst(d), (self.lo(a), self.lo(b)))
            return
        if not isinstance(b, PImm):
            raise self._unsupported_wide(ins)
        k = b.value
        lo_t = c.temp()
        if k >= 32:
            c.emit(Op.SHL, dh, (self.lo(a), Imm(k - 32)))
            c.emit(Op.MOV, self.dst(d), (Imm(0),))
            return
        t1, t2 = c.temp(), c.temp()
        c.emit(Op.SHL, t1, (self.hi(a), Imm(k)))
        c.emit(Op.SHR_U, t2, (self.lo(a), Imm(32 - k)))
        c.emit(Op.SHL, lo_t, (self.lo(a), Imm(k)))
        c.emit(Op.OR, dh, (t1, t2))
        c.emit(Op.MOV, self.dst(d), (lo_t,))

    def op_shr(self, ins: PtxInstr) -> None:
        c = self.c
        d, a, b = ins.operands
        signed = is_signed(type_of(ins))
        op = Op.SHR_S if signed else Op.SHR_U
        if not self._wide(ins):
            c.emit(op, self.dst(d), (self.narrow(a, type_of(ins)), self.lo(b)))
            return
        if not isinstance(b, PImm):
            raise self._unsupported_wide(ins)
        k = b.value
        dh = self.dst_hi(d)
        lo_t = c.temp()
        if k == 0:
            c.emit(Op.MOV, lo_t, (self.lo(a),))
            if dh is not None:
                c.emit(Op.MOV, dh, (self.hi(a),))
        elif k >= 32:
            c.emit(op, lo_t, (self.hi(a), Imm(min(k - 32, 31) if signed else k - 32)))
            if dh is not None:
                c.emit(op, dh, (self.hi(a), Imm(31 if signed else 32)))
        else:
            t1, t2 = c.temp(), c.temp()
            c.emit(Op.SHR_U, t1, (self.lo(a), Imm(k)))
            c.emit(Op.SHL, t2, (self.hi(a), Imm(32 - k)))
            c.emit(Op.OR, lo_t, (t1, t2))
            if dh is not None:
                c.emit(op, dh, (self.hi(a), Imm(k)))
        c.emit(Op.MOV, self.dst(d), (lo_t,))

    def op_shf(self, ins: PtxInstr) -> None:
        """Funnel shift: ``shf.l`` d = hi32({b,a} << n), ``shf.r`` d = lo32({b,a} >> n)."""
        c = self.c
        d, a, b, n = ins.operands
        left = "l" in ins.parts
        wrap = "wrap" in ins.parts
        amt = c.temp()
        if wrap:
            c.emit(Op.AND, amt, (self.lo(n), Imm(31)))
        else:
            c.emit(Op.MIN_U, amt, (self.lo(n), Imm(32)))
        inv, t1, t2 = c.temp(), c.temp(), c.temp()
        c.emit(Op.SUB, inv, (Imm(32), amt))
        if left:  # (b << n) | (a >> (32 - n))
            c.emit(Op.SHL, t1, (self.lo(b), amt))
            c.emit(Op.SHR_U, t2, (self.lo(a), inv))
        else:  # (a >> n) | (b << (32 - n))
            c.emit(Op.SHR_U, t1, (self.lo(a), amt))
            c.emit(Op.SHL, t2, (self.lo(b), inv))
        c.emit(Op.OR, self.dst(d), (t1, t2))

    def op_bfe(self, ins: PtxInstr) -> None:
        c = self.c
        d, a, pos, ln = ins.operands
        if not isinstance(pos, PImm) or not isinstance(ln, PImm) or self._wide(ins):
            raise c.err(f"'{ins.opcode}' with a non-constant position or length is not supported")
        p, n = pos.value & 0xFF, ln.value & 0xFF
        signed = is_signed(type_of(ins))
        if n == 0:
            c.emit(Op.MOV, self.dst(d), (Imm(0),))
            return
        if p + n >= 32:
            # every bit above the field is already outside the register
            c.emit(Op.SHR_S if signed else Op.SHR_U, self.dst(d), (self.lo(a), Imm(min(p, 31) if signed else p)))
            return
        t = c.temp()
        c.emit(Op.SHL, t, (self.lo(a), Imm(32 - p - n)))
        c.emit(Op.SHR_S if signed else Op.SHR_U, self.dst(d), (t, Imm(32 - n)))

    def op_bfi(self, ins: PtxInstr) -> None:
        """Insert the low ``len`` bits of f into b at ``pos`` (constant fields only)."""
        c = self.c
        d, f, b, pos, ln = ins.operands
        if not isinstance(pos, PImm) or not isinstance(ln, PImm):
            raise c.err(f"'{ins.opcode}' with a non-constant position or length is not supported")
        p, n = pos.value & 0xFF, ln.value & 0xFF
        if not self._wide(ins):
            self._bfi32(self.dst(d), self.lo(f), self.lo(b), p, n)
            return
        # 64-bit: the field must lie within one half (nvcc's pack idiom is bfi.b64 d, hi, lo, 32, 32)
        n = min(n, 64 - p) if p < 64 else 0
        dh = self.dst_hi(d)
        if n == 0 or p + n <= 32:
            low_done = c.temp()
            self._bfi32(low_done, self.lo(f), self.lo(b), p, n)
            if dh is not None:
                c.emit(Op.MOV, dh, (self.hi(b),))
            c.emit(Op.MOV, self.dst(d), (low_done,))
        elif p >= 32:
            if dh is not None:
                self._bfi32(dh, self.lo(f), self.hi(b), p - 32, n)
            c.emit(Op.MOV, self.dst(d), (self.lo(b),))
        else:
            raise self._unsupported_wide(ins)

    def _bfi32(self, dst, f, b, p: int, n: int) -> None:
        c = self.c
        if n == 0 or p >= 32:
            c.emit(Op.MOV, dst, (b,))
            return
        mask = (((1 << n) - 1) << p) & 0xFFFFFFFF
        t1, t2 = c.temp(), c.temp()
        c.emit(Op.SHL, t1, (f, Imm(p)))
        c.emit(Op.AND, t1, (t1, Imm(mask)))
        c.emit(Op.AND, t2, (b, Imm(~mask)))
        c.emit(Op.OR, dst, (t1, t2))

    def op_bfind(self, ins: PtxInstr) -> None:
        """Position of the most significant 1 (signed: non-sign) bit; 0xffffffff if none."""
        c = self.c
        self._narrow_only(ins)
        d, a = ins.operands
        src = self.lo(a)
        if is_signed(type_of(ins)):
            sign, flipped = c.temp(), c.temp()
            c.emit(Op.SHR_S, sign, (src, Imm(31)))
            c.emit(Op.XOR, flipped, (src, sign))
            src = flipped
        lz = c.temp()
        c.emit(Op.CLZ, lz, (src,))
        if "shiftamt" in ins.parts:
            none = c.temp_pred()
            c.emit(Op.SETP, none, (src, Imm(0)), "eq")
            c.emit(Op.SELP, self.dst(d), (Imm(0xFFFFFFFF), lz, none))
        else:
            c.emit(Op.SUB, self.dst(d), (Imm(31), lz))  # 31 - 32 = 0xffffffff for 0

    def op_sad(self, ins: PtxInstr) -> None:
        """d = c + |a - b|, the difference taken in the type's signedness."""
        c = self.c
        self._narrow_only(ins)
        d, a, b, e = ins.operands
        t = type_of(ins)
        x, y = self.narrow(a, t), self.narrow(b, t)
        lt, d1, d2, diff = c.temp_pred(), c.temp(), c.temp(), c.temp()
        c.emit(Op.SETP, lt, (x, y), "lt" if is_signed(t) else "lo")
        c.emit(Op.SUB, d1, (y, x))
        c.emit(Op.SUB, d2, (x, y))
        c.emit(Op.SELP, diff, (d1, d2, lt))
        c.emit(Op.ADD, self.dst(d), (diff, self.lo(e)))

    def op_prmt(self, ins: PtxInstr) -> None:
        """The circuit has no byte-permute unit: shifts, masks and ORs (compiler/isel_prmt.py)."""
        if len(ins.parts) > 2:
            raise self.c.err(f"'{ins.opcode}': only the default prmt mode is supported")
        d, a, b, s = ins.operands
        if self.c.native_ops:  # the fallback for programs that do not fit once expanded
            self.c.emit(Op.PRMT, self.dst(d), (self.lo(a), self.lo(b), self.lo(s)))
            return
        # nvcc often moves a constant selector into a register first (mov.u32 %r4, 291; prmt ... %r4):
        # a register written once, by that mov, is the constant (the expansion is 1-15 instructions
        # instead of 58)
        sel = Imm(self.c.consts[s.name]) if isinstance(s, PReg) and s.name in self.c.consts else self.lo(s)
        emit_prmt(self.c, self.dst(d), self.lo(a), self.lo(b), sel, self.guard(ins.guard))
        self.c.guarded_itself = True  # only the result is guarded

    def op_selp(self, ins: PtxInstr) -> None:
        c = self.c
        d, a, b, p = ins.operands
        pr = self.pred_src(p)
        c.emit(Op.SELP, self.dst(d), (self.lo(a), self.lo(b), pr))
        dh = self.dst_hi(d) if self._wide(ins) else None
        if dh is not None:
            c.emit(Op.SELP, dh, (self.hi(a), self.hi(b), pr))

    def op_slct(self, ins: PtxInstr) -> None:
        c = self.c
        d, a, b, s = ins.operands
        p = c.temp_pred()
        c.emit(Op.SETP, p, (self.lo(s), Imm(0)), "ge")
        c.emit(Op.SELP, self.dst(d), (self.lo(a), self.lo(b), p))

    def op_setp(self, ins: PtxInstr) -> None:
        c = self.c
        t = type_of(ins)
        cmp = ins.parts[1]
        boolop = next((p for p in ins.parts[2:] if p in ("and", "or", "xor")), None)
        table = SIGNED_CMP if is_signed(t) else UNSIGNED_CMP
        if cmp not in table:
            raise c.err(f"'{ins.opcode}': comparison '{cmp}' is not supported")
        ops = list(ins.operands)
        d = ops.pop(0)
        second: PReg | None = None
        if isinstance(d, PPair):
            d, second = d.first, d.second
        a, b = ops[0], ops[1]
        extra = ops[2] if len(ops) > 2 else None
        if second is not None:
            raise c.err(f"'{ins.opcode}' with two predicate destinations is not supported")
        target = self.pred(d)
        res = c.temp_pred() if boolop else target
        if t in WIDE:
            self._setp64(res, table[cmp], a, b)
        else:
            c.emit(Op.SETP, res, (self.narrow(a, t), self.narrow(b, t)), table[cmp])
        if boolop:
            pop = {"and": Op.PAND, "or": Op.POR, "xor": Op.PXOR}[boolop]
            c.emit(pop, target, (res, self.pred_src(extra)))

    def _setp64(self, res: Pred, cmp: str, a, b) -> None:
        c = self.c
        al, ah, bl, bh = self.lo(a), self.hi(a), self.lo(b), self.hi(b)
        if cmp in ("eq", "ne"):
            p1, p2 = c.temp_pred(), c.temp_pred()
            c.emit(Op.SETP, p1, (al, bl), cmp)
            c.emit(Op.SETP, p2, (ah, bh), cmp)
            c.emit(Op.PAND if cmp == "eq" else Op.POR, res, (p1, p2))
            return
        strict = {"lt": "lt", "le": "lt", "gt": "gt", "ge": "gt",
                  "lo": "lo", "ls": "lo", "hi": "hi", "hs": "hi"}[cmp]
        low = {"lt": "lo", "le": "ls", "gt": "hi", "ge": "hs",
               "lo": "lo", "ls": "ls", "hi": "hi", "hs": "hs"}[cmp]
        ph, pe, pl = c.temp_pred(), c.temp_pred(), c.temp_pred()
        c.emit(Op.SETP, ph, (ah, bh), strict)
        c.emit(Op.SETP, pe, (ah, bh), "eq")
        c.emit(Op.SETP, pl, (al, bl), low)
        c.emit(Op.PAND, pe, (pe, pl))
        c.emit(Op.POR, res, (ph, pe))

    def op_cvt(self, ins: PtxInstr) -> None:
        c = self.c
        parts = [p for p in ins.parts[1:] if p[:1] in "usbf" and p[1:].isdigit()]
        if len(parts) != 2 or any(p.startswith("f") for p in parts) or any(
                p in ("rn", "rz", "rm", "rp", "rni", "rzi", "sat") for p in ins.parts[1:]):
            raise c.err(f"'{ins.opcode}' is not supported (integer conversions only)")
        dt, st = parts
        d, a = ins.operands
        dbits, sbits = int(dt[1:]), int(st[1:])
        if dbits == 64:
            c.emit(Op.MOV, self.dst(d), (self.lo(a),))
            dh = self.dst_hi(d)
            if dh is not None:
                if sbits == 64:
                    c.emit(Op.MOV, dh, (self.hi(a),))
                elif is_signed(st):
                    c.emit(Op.SHR_S, dh, (self.lo(a), Imm(31)))
                else:
                    c.emit(Op.MOV, dh, (Imm(0),))
            if sbits < 32:
                raise c.err(f"'{ins.opcode}' from a {sbits}-bit type is not supported")
            return
        width = min(dbits, sbits)
        signed = is_signed(st) if sbits <= dbits else is_signed(dt)
        if width >= 32:
            c.emit(Op.MOV, self.dst(d), (self.lo(a),))
        elif signed:
            t = c.temp()
            c.emit(Op.SHL, t, (self.lo(a), Imm(32 - width)))
            c.emit(Op.SHR_S, self.dst(d), (t, Imm(32 - width)))
        else:
            c.emit(Op.AND, self.dst(d), (self.lo(a), Imm((1 << width) - 1)))
