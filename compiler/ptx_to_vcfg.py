"""PTX IR -> virtual-register machine CFG (one pass: instruction selection).

Every PTX instruction becomes one or a few machine instructions on virtual
registers. 64-bit PTX values (addresses, ``mul.wide`` products) become 32-bit
halves: a first analysis finds which 64-bit registers ever need their upper half
(``hi_demanded``); for all others only the low half is computed, which is exact
because the low 32 bits of add/sub/mul/shl/logic results depend only on the low
32 bits of their operands, and addresses in a 126-word memory fit in 32 bits.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from compiler.cfg import VBlock, VProgram, simplify
from compiler.errors import CompileError
from compiler.machine.isa import (
    Barrier, Branch, Exit, Guard, Imm, Instr, Jump, Op, Operand, Pred, Reg, ZERO,
)
from compiler.ptx_parse import (
    PAddr, PImm, PPair, PReg, PSpecial, PSym, PtxInstr, PtxKernel, PtxLabel, PVec,
)

_WIDE = ("u64", "s64", "b64")
_SIGNED_CMP = {"lt": "lt", "le": "le", "gt": "gt", "ge": "ge", "eq": "eq", "ne": "ne",
               "lo": "lo", "ls": "ls", "hi": "hi", "hs": "hs"}
_UNSIGNED_CMP = {"lt": "lo", "le": "ls", "gt": "hi", "ge": "hs", "eq": "eq", "ne": "ne",
                 "lo": "lo", "ls": "ls", "hi": "hi", "hs": "hs"}
BAR_RED_COUNTER = "__qgpu_bar_red_counter"
"""Hidden shared word used to lower bar.red (see _Lowerer.bar_red)."""
_LOCAL = ("local memory is not supported: a per-thread array indexed at run time (or a value "
          "spilled to the stack); use shared memory or registers")
_IGNORED = {"membar", "fence", "prefetch", "prefetchu", "pmevent", "nanosleep"}
_ALU2 = {"add": Op.ADD, "sub": Op.SUB, "and": Op.AND, "or": Op.OR, "xor": Op.XOR,
         "shl": Op.SHL}
_ALU1 = {"not": Op.NOT, "neg": Op.NEG, "abs": Op.ABS, "popc": Op.POPC, "clz": Op.CLZ,
         "brev": Op.BREV}


def _type_of(ins: PtxInstr) -> str:
    for p in reversed(ins.parts[1:]):
        if p[:1] in "usbfp" and p[1:].isdigit() or p == "pred":
            return p
    return ""


def _signed(t: str) -> bool:
    return t.startswith("s")


@dataclass
class _Ctx:
    kernel: PtxKernel
    filename: str
    shared_offsets: dict[str, int]
    hi: set[str]
    params: dict[str, int]
    shared_ptrs: set[str]
    tmp: int = 0
    out: list[Instr] = field(default_factory=list)
    ins: PtxInstr | None = None

    def err(self, msg: str) -> CompileError:
        line = self.ins.line if self.ins else None
        return CompileError(msg, file=self.filename, line=line)

    def take(self) -> list[Instr]:
        out, self.out = self.out, []
        return out

    def temp(self) -> Reg:
        self.tmp += 1
        return Reg(f"t{self.tmp}")

    def temp_pred(self) -> Pred:
        self.tmp += 1
        return Pred(f"tp{self.tmp}")

    def emit(self, op: Op, dst=None, srcs=(), mod: str = "", guard: Guard | None = None,
             dst2: Pred | None = None) -> None:
        self.out.append(Instr(op, dst, tuple(srcs), mod, guard, dst2,
                              self.ins.line if self.ins else None))


def _declared64(ctx: _Ctx, name: str) -> bool:
    """nvcc and clang both name every 64-bit register ``%rd<N>``."""
    return name.startswith("%rd")


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
            t = _type_of(ins)
            if t not in _WIDE or not ins.operands:
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
                          "mul", "selp", "mad") and dst_hi:
                for s in srcs:
                    need(s)
            elif base == "st" and t in _WIDE:
                need(ins.operands[1])
    return demanded


def _shared_derived(kernel: PtxKernel) -> set[str]:
    """Registers that may hold an address in shared memory (flow-insensitive).

    Needed for clang's generic ``ld``/``st``/``atom`` without a state space.
    """
    shared: set[str] = set()
    changed = True
    instrs = [i for i in kernel.body if isinstance(i, PtxInstr)]
    while changed:
        changed = False
        for ins in instrs:
            if not ins.operands or not isinstance(ins.operands[0], PReg):
                continue
            dst = ins.operands[0].name
            if dst in shared:
                continue
            srcs = ins.operands[1:]
            from_shared = any(isinstance(s, PSym) and s.name in kernel.shared for s in srcs) or \
                any(isinstance(s, PAddr) and isinstance(s.base, PSym) and s.base.name in kernel.shared
                    for s in srcs) or (ins.base == "cvta" and "shared" in ins.parts and "to" not in ins.parts)
            if ins.base in ("mov", "add", "sub", "cvta", "cvt", "mad", "shl", "or", "and", "selp") and (
                    from_shared or any(isinstance(s, PReg) and s.name in shared for s in srcs)):
                shared.add(dst)
                changed = True
    return shared


class _Lowerer:
    def __init__(self, ctx: _Ctx):
        self.c = ctx

    # --- operands ------------------------------------------------------------------------------
    def lo(self, op) -> Operand:
        c = self.c
        if isinstance(op, PReg):
            if op.neg:
                raise c.err(f"negated operand {op.name} where a value is expected")
            return Reg(op.name[1:] + (".lo" if _declared64(c, op.name) else ""))
        if isinstance(op, PImm):
            return Imm(op.value)
        if isinstance(op, PSym):
            if op.name in c.shared_offsets:
                return Imm(c.shared_offsets[op.name])
            if op.name.startswith("__local_depot"):
                raise c.err(_LOCAL)
            raise c.err(f"symbol {op.name} is not a shared variable this machine knows "
                        "(global __device__ variables and constants are not supported)")
        if isinstance(op, PSpecial):
            t = c.temp()
            self.sreg(t, op)
            return t
        raise c.err(f"unexpected operand {op}")

    def hi(self, op) -> Operand:
        c = self.c
        if isinstance(op, PReg):
            if not _declared64(c, op.name):
                raise c.err(f"{op.name} used as a 64-bit value")
            return Reg(op.name[1:] + ".hi")
        if isinstance(op, PImm):
            return Imm((op.value >> 32) & 0xFFFFFFFF)
        if isinstance(op, PSym):
            return Imm(0)
        raise c.err(f"unexpected 64-bit operand {op}")

    def narrow(self, op, t: str) -> Operand:
        """An operand of an 8/16-bit PTX type, sign- or zero-extended to 32 bits.

        Narrow registers live in 32-bit machine registers whose upper bits are
        don't-care after add/sub/mul/logic; compares, right shifts, division and
        min/max must see the extended value.
        """
        v = self.lo(op)
        bits = int(t[1:]) if t[1:].isdigit() else 32
        if bits >= 32:
            return v
        tmp = self.c.temp()
        if _signed(t):
            self.c.emit(Op.SHL, tmp, (v, Imm(32 - bits)))
            self.c.emit(Op.SHR_S, tmp, (tmp, Imm(32 - bits)))
        else:
            self.c.emit(Op.AND, tmp, (v, Imm((1 << bits) - 1)))
        return tmp

    def dst(self, op) -> Reg:
        if not isinstance(op, PReg):
            raise self.c.err(f"destination must be a register, got {op}")
        return Reg(op.name[1:] + (".lo" if _declared64(self.c, op.name) else ""))

    def dst_hi(self, op) -> Reg | None:
        if isinstance(op, PReg) and op.name in self.c.hi:
            return Reg(op.name[1:] + ".hi")
        return None

    def pred(self, op) -> Pred:
        if not isinstance(op, PReg):
            raise self.c.err(f"expected a predicate register, got {op}")
        return Pred(op.name[1:])

    def pred_src(self, op) -> Pred:
        """A predicate source; ``!%p`` is materialised with not.pred, constants with setp."""
        if isinstance(op, PImm):
            t = self.c.temp_pred()
            self.c.emit(Op.SETP, t, (ZERO, ZERO), "eq" if op.value else "ne")
            return t
        p = self.pred(op)
        if isinstance(op, PReg) and op.neg:
            t = self.c.temp_pred()
            self.c.emit(Op.PNOT, t, (p,))
            return t
        return p

    def guard(self, g: PReg | None) -> Guard | None:
        return Guard(Pred(g.name[1:]), g.neg) if g else None

    def sreg(self, dst: Reg, op: PSpecial) -> None:
        from compiler.machine.isa import SPECIAL_REGS

        if op.name not in SPECIAL_REGS:
            raise self.c.err(f"special register %{op.name} is not supported")
        self.c.emit(Op.SREG, dst, (), op.name)

    # --- instructions --------------------------------------------------------------------------
    def lower(self, ins: PtxInstr) -> None:
        c = self.c
        c.ins = ins
        base = ins.base
        if base == "mov" and any(isinstance(o, PSym) and o.name.startswith("__local_depot") for o in ins.operands):
            return  # setting up the stack: refused where it is used, at that line
        if any(isinstance(o, PReg) and o.name in ("%SP", "%SPL") for o in ins.operands):
            if base not in ("add", "sub", "mov", "cvta"):
                raise c.err(_LOCAL)
            return  # stack address arithmetic: refused at the ld/st.local that uses it
        if base in _IGNORED or (base == "bar" and "warp" in ins.parts):
            return
        if any(p in ("f16", "f16x2", "bf16", "bf16x2", "f32", "f64", "tf32") for p in ins.parts[1:]):
            raise c.err(f"floating-point instruction '{ins.opcode}' is not supported (integer kernels only)")
        fn = getattr(self, f"op_{base}", None)
        if fn is None:
            raise c.err(f"unsupported PTX instruction '{ins.opcode}'")
        g = self.guard(ins.guard)
        if g is not None and base not in ("bra", "ret", "exit"):
            start = len(c.out)
            fn(ins)
            for k in range(start, len(c.out)):
                i = c.out[k]
                if i.guard is not None:
                    raise c.err(f"guarded '{ins.opcode}' is not supported")
                c.out[k] = Instr(i.op, i.dst, i.srcs, i.mod, g, i.dst2, i.line)
        else:
            fn(ins)

    def _wide(self, ins: PtxInstr) -> bool:
        return _type_of(ins) in _WIDE

    def _unsupported_wide(self, ins: PtxInstr) -> CompileError:
        return self.c.err(f"64-bit '{ins.opcode}' whose upper 32 bits matter is not supported "
                          "(the machine is 32-bit; use int/unsigned values)")

    def op_mov(self, ins: PtxInstr) -> None:
        c = self.c
        d, s = ins.operands
        if _type_of(ins) == "pred":
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
        if "local" in parts or "const" in parts:
            raise self.c.err(_LOCAL if "local" in parts else
                             f"'{ins.opcode}': constant memory (__constant__ data) is not supported")
        # generic address: decide by where the pointer came from
        if isinstance(addr.base, PSym) and addr.base.name in self.c.kernel.shared:
            return "shared"
        if isinstance(addr.base, PReg) and addr.base.name in self.c.shared_ptrs:
            return "shared"
        return "global"

    def _mem(self, ins: PtxInstr, load: bool) -> None:
        c = self.c
        t = _type_of(ins)
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
            self._subword_load(ins, self.dst(d), a, int(t[1:]), _signed(t))
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
        t = _type_of(ins)
        if t not in ("u32", "s32", "b32"):
            raise c.err(f"'{ins.opcode}': only 32-bit integer atomics are supported")
        ops = [p for p in ins.parts[1:] if p in ("add", "min", "max", "exch", "cas", "and", "or", "xor",
                                                 "inc", "dec")]
        if not ops:
            raise c.err(f"unsupported atomic '{ins.opcode}'")
        op = ops[0]
        if op in ("min", "max"):
            op += ".s" if _signed(t) else ".u"
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

    def _alu2(self, ins: PtxInstr, op: Op) -> None:
        d, a, b = ins.operands
        if op in (Op.ADD, Op.SUB, Op.AND, Op.OR, Op.XOR, Op.SHL, Op.MUL):
            self.c.emit(op, self.dst(d), (self.lo(a), self.lo(b)))
        else:  # the result depends on bits above a narrow type's width
            t = _type_of(ins)
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
        if _type_of(ins) == "pred":
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
        if _type_of(ins) == "pred":
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
        c.emit(Op.SETP, p, (self.lo(a), Imm(0)), "eq")
        c.emit(Op.SELP, self.dst(d), (Imm(1), Imm(0), p))

    def _unary(self, ins: PtxInstr, op: Op) -> None:
        if self._wide(ins) and ins.base not in ("popc", "clz", "brev"):
            d = ins.operands[0]
            if self.dst_hi(d) is not None:
                raise self._unsupported_wide(ins)
        if self._wide(ins) and ins.base in ("popc", "clz", "brev"):
            raise self._unsupported_wide(ins)
        d, a = ins.operands
        self.c.emit(op, self.dst(d), (self.lo(a),))

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
        t = _type_of(ins)
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
                c.emit(Op.MULHI_S if _signed(t) else Op.MULHI_U, dh, (self.lo(a), self.lo(b)))
                c.emit(Op.MOV, self.dst(d), (lo_t,))
            return
        if "hi" in ins.parts:
            if t in _WIDE:
                raise self._unsupported_wide(ins)
            c.emit(Op.MULHI_S if _signed(t) else Op.MULHI_U, self.dst(d), (self.lo(a), self.lo(b)))
            return
        if "24" in ins.opcode.split(".")[0]:
            raise c.err(f"'{ins.opcode}' is not supported")
        dh = self.dst_hi(d) if t in _WIDE else None
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

    def op_mad(self, ins: PtxInstr) -> None:
        c = self.c
        d, a, b, e = ins.operands
        t = _type_of(ins)
        if t in _WIDE or "wide" in ins.parts or "cc" in ins.parts:
            raise c.err(f"'{ins.opcode}' is not supported (64-bit multiply-add)")
        tmp = c.temp()
        if "hi" in ins.parts:
            c.emit(Op.MULHI_S if _signed(t) else Op.MULHI_U, tmp, (self.lo(a), self.lo(b)))
        else:
            c.emit(Op.MUL, tmp, (self.lo(a), self.lo(b)))
        c.emit(Op.ADD, self.dst(d), (tmp, self.lo(e)))

    def _narrow_only(self, ins: PtxInstr) -> None:
        if self._wide(ins):
            raise self._unsupported_wide(ins)

    def op_div(self, ins: PtxInstr) -> None:
        self._narrow_only(ins)
        self._alu2(ins, Op.DIV_S if _signed(_type_of(ins)) else Op.DIV_U)

    def op_rem(self, ins: PtxInstr) -> None:
        self._narrow_only(ins)
        self._alu2(ins, Op.REM_S if _signed(_type_of(ins)) else Op.REM_U)

    def op_min(self, ins: PtxInstr) -> None:
        self._narrow_only(ins)
        self._alu2(ins, Op.MIN_S if _signed(_type_of(ins)) else Op.MIN_U)

    def op_max(self, ins: PtxInstr) -> None:
        self._narrow_only(ins)
        self._alu2(ins, Op.MAX_S if _signed(_type_of(ins)) else Op.MAX_U)

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
        signed = _signed(_type_of(ins))
        op = Op.SHR_S if signed else Op.SHR_U
        if not self._wide(ins):
            c.emit(op, self.dst(d), (self.narrow(a, _type_of(ins)), self.lo(b)))
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
        signed = _signed(_type_of(ins))
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
        c = self.c
        d, f, b, pos, ln = ins.operands
        if not isinstance(pos, PImm) or not isinstance(ln, PImm):
            raise c.err(f"'{ins.opcode}' with a non-constant position or length is not supported")
        p, n = pos.value & 0xFF, ln.value & 0xFF
        if n == 0 or p >= 32:
            c.emit(Op.MOV, self.dst(d), (self.lo(b),))
            return
        mask = (((1 << n) - 1) << p) & 0xFFFFFFFF
        t1, t2 = c.temp(), c.temp()
        c.emit(Op.SHL, t1, (self.lo(f), Imm(p)))
        c.emit(Op.AND, t1, (t1, Imm(mask)))
        c.emit(Op.AND, t2, (self.lo(b), Imm(~mask)))
        c.emit(Op.OR, self.dst(d), (t1, t2))

    def op_bfind(self, ins: PtxInstr) -> None:
        """Position of the most significant 1 (signed: non-sign) bit; 0xffffffff if none."""
        c = self.c
        self._narrow_only(ins)
        d, a = ins.operands
        src = self.lo(a)
        if _signed(_type_of(ins)):
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
        lt, d1, d2, diff = c.temp_pred(), c.temp(), c.temp(), c.temp()
        c.emit(Op.SETP, lt, (self.lo(a), self.lo(b)), "lt" if _signed(_type_of(ins)) else "lo")
        c.emit(Op.SUB, d1, (self.lo(b), self.lo(a)))
        c.emit(Op.SUB, d2, (self.lo(a), self.lo(b)))
        c.emit(Op.SELP, diff, (d1, d2, lt))
        c.emit(Op.ADD, self.dst(d), (diff, self.lo(e)))

    def op_prmt(self, ins: PtxInstr) -> None:
        if len(ins.parts) > 2:
            raise self.c.err(f"'{ins.opcode}': only the default prmt mode is supported")
        d, a, b, s = ins.operands
        self.c.emit(Op.PRMT, self.dst(d), (self.lo(a), self.lo(b), self.lo(s)))

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
        t = _type_of(ins)
        cmp = ins.parts[1]
        boolop = next((p for p in ins.parts[2:] if p in ("and", "or", "xor")), None)
        table = _SIGNED_CMP if _signed(t) else _UNSIGNED_CMP
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
        if t in _WIDE:
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
                elif _signed(st):
                    c.emit(Op.SHR_S, dh, (self.lo(a), Imm(31)))
                else:
                    c.emit(Op.MOV, dh, (Imm(0),))
            if sbits < 32:
                raise c.err(f"'{ins.opcode}' from a {sbits}-bit type is not supported")
            return
        width = min(dbits, sbits)
        signed = _signed(st) if sbits <= dbits else _signed(dt)
        if width >= 32:
            c.emit(Op.MOV, self.dst(d), (self.lo(a),))
        elif signed:
            t = c.temp()
            c.emit(Op.SHL, t, (self.lo(a), Imm(32 - width)))
            c.emit(Op.SHR_S, self.dst(d), (t, Imm(32 - width)))
        else:
            c.emit(Op.AND, self.dst(d), (self.lo(a), Imm((1 << width) - 1)))

    def op_shfl(self, ins: PtxInstr) -> None:
        c = self.c
        if "sync" not in ins.parts:
            raise c.err(f"'{ins.opcode}': use the .sync form (__shfl_*_sync)")
        mode = next((p for p in ins.parts if p in ("up", "down", "bfly", "idx")), None)
        if mode is None:
            raise c.err(f"'{ins.opcode}': unknown shuffle mode")
        d, a, b, cc, mask = ins.operands
        dst2 = None
        if isinstance(d, PPair):
            d, p = d.first, d.second
            dst2 = self.pred(p)
        c.emit(Op.SHFL, self.dst(d), (self.lo(a), self.lo(b), self.lo(cc), self.lo(mask)), mode, dst2=dst2)

    def op_vote(self, ins: PtxInstr) -> None:
        c = self.c
        mode = next((p for p in ins.parts if p in ("any", "all", "ballot", "uni")), None)
        if mode is None or "sync" not in ins.parts:
            raise c.err(f"'{ins.opcode}' is not supported (use __any_sync/__all_sync/__ballot_sync)")
        d, a, mask = ins.operands
        src = self.pred_src(a)
        dst = self.dst(d) if mode == "ballot" else self.pred(d)
        c.emit(Op.VOTE, dst, (src, self.lo(mask)), mode)

    def op_activemask(self, ins: PtxInstr) -> None:
        c = self.c
        (d,) = ins.operands
        p = c.temp_pred()
        c.emit(Op.SETP, p, (ZERO, ZERO), "eq")
        c.emit(Op.VOTE, self.dst(d), (p, Imm(0xFFFFFFFF)), "ballot")

    def bar_red(self, ins: PtxInstr) -> tuple[list[Instr], list[Instr], list[Instr]]:
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
        return before, middle, c.take()

    def op_call(self, ins: PtxInstr) -> None:
        callee = ins.operands[0].name if ins.operands and isinstance(ins.operands[0], PSym) else "?"
        m = re.match(r"_Z(\d+)", callee)  # a C++ mangled name: _Z3fibi -> fib
        what = "printf" if callee == "vprintf" else callee[m.end():m.end() + int(m.group(1))] if m else callee
        raise self.c.err(f"call to '{what}' is not supported: the machine has no calls "
                         "(device functions must inline: no recursion, __noinline__ or printf)")


def lower_kernel(kernel: PtxKernel, filename: str, shared_offsets: dict[str, int]) -> VProgram:
    """Lower one PTX kernel to basic blocks of virtual-register machine instructions."""
    ctx = _Ctx(kernel=kernel, filename=filename, shared_offsets=shared_offsets,
               hi=_hi_demanded(kernel), params={p.name: i for i, p in enumerate(kernel.params)},
               shared_ptrs=_shared_derived(kernel))
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
        cur.term = term
        blocks.append(cur)
        counter += 1
        cur = VBlock(next_label or f"{blocks[-1].label}+{counter}")

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
            if "red" in item.parts:
                before, middle, after = low.bar_red(item)
                cur.instrs.extend(before)
                nxt = f"L{item.line}"
                close(Barrier(nxt), nxt)
                cur.instrs.extend(middle)
                nxt = f"L{item.line}b"
                close(Barrier(nxt), nxt)
                cur.instrs.extend(after)
                continue
            if "arrive" in item.parts or item.guard is not None or len(item.operands) > 1 or (
                    item.operands and not (isinstance(item.operands[0], PImm) and item.operands[0].value == 0)):
                raise ctx.err(f"'{item.opcode}' with a guard, a barrier id other than 0 or a thread count "
                              "is not supported (use __syncthreads())")
            nxt = f"L{item.line}"
            close(Barrier(nxt), nxt)
            continue
        low.lower(item)
        cur.instrs.extend(ctx.out)
        ctx.out.clear()
    close(Exit())  # falling off the end of a kernel is an implicit exit
    return simplify(VProgram(blocks))

