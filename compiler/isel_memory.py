"""Memory PTX ops -> machine ops: ld/st (global, shared, params, narrow loads), atomics, bar.red."""

from __future__ import annotations

from compiler.isel_common import (
    BAR_RED_COUNTER, LowererBase, is_signed, type_of,
)
from compiler.machine.isa import Imm, Instr, Op, Operand, Reg, ZERO
from compiler.ptx_parse import PAddr, PImm, PReg, PSym, PtxInstr, PVec


class MemoryOps(LowererBase):
    def op_ld(self, ins: PtxInstr) -> None:
        self._mem(ins, load=True)

    def op_ldu(self, ins: PtxInstr) -> None:
        self._mem(ins, load=True)

    def op_st(self, ins: PtxInstr) -> None:
        self._mem(ins, load=False)

    def _space(self, ins: PtxInstr, addr: PAddr) -> str:
        parts = ins.parts
        if "shared" in parts:
            return "shared"
        if "global" in parts:
            return "global"
        if "local" in parts:
            return "local"
        if "const" in parts:
            raise self.c.err(f"'{ins.opcode}': constant memory (__constant__ data) is not supported")
        # generic address: decide by where the pointer came from
        if isinstance(addr.base, PSym) and addr.base.name in self.c.kernel.shared:
            return "shared"
        if isinstance(addr.base, PReg) and addr.base.name in self.c.shared_ptrs:
            return "shared"
        if isinstance(addr.base, PReg) and addr.base.name in self.c.local_ptrs:
            return "local"
        return "global"

    def _mem(self, ins: PtxInstr, load: bool) -> None:
        c = self.c
        t = type_of(ins)
        if "param" in ins.parts:
            if not load:
                raise c.err("st.param is not supported (device function calls are not supported)")
            d, a = ins.operands
            if not isinstance(a, PAddr) or not isinstance(a.base, PSym) or a.base.name not in c.params:
                raise c.err(f"ld.param from {a} is not a kernel parameter")
            if a.offset:
                raise c.err("by-value struct parameters are not supported")
            c.emit(Op.PARAM, self.dst(d), (Imm(c.params[a.base.name]),))
            dh = self.dst_hi(d)
            if dh is not None:
                c.emit(Op.MOV, dh, (Imm(0),))
            return
        if load:
            d, a = ins.operands
        else:
            a, d = ins.operands
        if load and t in ("u8", "s8", "b8", "u16", "s16", "b16") and not isinstance(d, PVec) \
                and isinstance(a, PAddr):
            self._subword_load(ins, self.dst(d), a, int(t[1:]), is_signed(t))
            return
        if t not in ("u32", "s32", "b32"):
            raise c.err(f"'{ins.opcode}': only 32-bit stores (and 8/16/32-bit loads) are supported "
                        f"(this is a {t or 'untyped'} access)")
        if not isinstance(a, PAddr):
            raise c.err(f"expected an address operand, got {a}")
        space = self._space(ins, a)
        base, off = self._addr(a)
        vals = list(d.items) if isinstance(d, PVec) else [d]
        for k, v in enumerate(vals):
            if load:
                c.emit(Op.LD, self.dst(v), (base, Imm(off + 4 * k)), space)
                dh = self.dst_hi(v)
                if dh is not None:  # a 32-bit load into a 64-bit register extends it
                    c.emit(Op.SHR_S, dh, (self.dst(v), Imm(31))) if is_signed(t) else c.emit(Op.MOV, dh, (Imm(0),))
            else:
                c.emit(Op.ST, None, (base, Imm(off + 4 * k), self.lo(v)), space)

    def _subword_load(self, ins: PtxInstr, dst: Reg, a: PAddr, bits: int, signed: bool) -> None:
        """An 8/16-bit load (nvcc narrows ``x[i] & 255`` to one): load the word, shift, extend."""
        c = self.c
        space = self._space(ins, a)
        base, off = self._addr(a)
        addr, aligned, word, shift = c.temp(), c.temp(), c.temp(), c.temp()
        c.emit(Op.ADD, addr, (base, Imm(off)))
        c.emit(Op.AND, aligned, (addr, Imm(~3)))
        c.emit(Op.LD, word, (aligned, Imm(0)), space)
        c.emit(Op.AND, shift, (addr, Imm(3)))
        c.emit(Op.SHL, shift, (shift, Imm(3)))
        c.emit(Op.SHR_U, word, (word, shift))
        if signed:
            c.emit(Op.SHL, word, (word, Imm(32 - bits)))
            c.emit(Op.SHR_S, dst, (word, Imm(32 - bits)))
        else:
            c.emit(Op.AND, dst, (word, Imm((1 << bits) - 1)))

    def _addr(self, a: PAddr) -> tuple[Operand, int]:
        if a.base is None:
            return ZERO, a.offset
        if isinstance(a.base, PSym):
            if a.base.name in self.c.shared_offsets:
                return ZERO, self.c.shared_offsets[a.base.name] + a.offset
            raise self.c.err(f"address of unknown symbol {a.base.name}")
        return self.lo(a.base), a.offset

    def op_atom(self, ins: PtxInstr) -> None:
        self._atom(ins, has_dst=True)

    def op_red(self, ins: PtxInstr) -> None:
        self._atom(ins, has_dst=False)

    def _atom(self, ins: PtxInstr, has_dst: bool) -> None:
        c = self.c
        t = type_of(ins)
        if t not in ("u32", "s32", "b32"):
            raise c.err(f"'{ins.opcode}': only 32-bit integer atomics are supported")
        ops = [p for p in ins.parts[1:] if p in ("add", "min", "max", "exch", "cas", "and", "or", "xor",
                                                 "inc", "dec")]
        if not ops:
            raise c.err(f"unsupported atomic '{ins.opcode}'")
        op = ops[0]
        if op in ("min", "max"):
            op += ".s" if is_signed(t) else ".u"
        operands = list(ins.operands)
        dst = self.dst(operands.pop(0)) if has_dst else ZERO
        a = operands.pop(0)
        if not isinstance(a, PAddr):
            raise c.err(f"expected an address operand, got {a}")
        space = self._space(ins, a)
        base, off = self._addr(a)
        vals = [self.lo(v) for v in operands]
        if op != "cas":
            vals.append(ZERO)
        c.emit(Op.ATOM, dst, (base, Imm(off), *vals), f"{space}.{op}")

    def bar_red(self, ins: PtxInstr) -> list[list[Instr]]:
        """``bar.red`` (__syncthreads_count/_or/_and) as two plain barriers around a counter.

        Each thread adds its vote to a hidden shared word, all meet, all read the
        total, all meet again, then each takes its vote back out, so the word is 0
        again before the next use's first barrier.
        """
        c = self.c
        mode = next((p for p in ins.parts if p in ("popc", "and", "or")), None)
        if mode is None or len(ins.operands) != 3 or ins.guard is not None:
            raise c.err(f"'{ins.opcode}' is not supported")
        d, bar_id, p = ins.operands
        if not (isinstance(bar_id, PImm) and bar_id.value == 0):
            raise c.err(f"'{ins.opcode}' with a barrier id other than 0 is not supported")
        counter = Imm(c.shared_offsets[BAR_RED_COUNTER])
        vote, total, back = c.temp(), c.temp(), c.temp()
        pred = self.pred_src(p)
        # and: count the threads whose predicate is false
        c.emit(Op.SELP, vote, (Imm(0), Imm(1), pred) if mode == "and" else (Imm(1), Imm(0), pred))
        c.emit(Op.ATOM, ZERO, (ZERO, counter, vote, ZERO), "shared.add")
        before = c.take()
        c.emit(Op.LD, total, (ZERO, counter), "shared")
        middle = c.take()
        c.emit(Op.NEG, back, (vote,))
        c.emit(Op.ATOM, ZERO, (ZERO, counter, back, ZERO), "shared.add")
        if mode == "popc":
            c.emit(Op.MOV, self.dst(d), (total,))
        else:
            c.emit(Op.SETP, self.pred(d), (total, Imm(0)), "ne" if mode == "or" else "eq")
        return [before, middle, c.take()]
