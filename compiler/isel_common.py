"""Shared pieces of instruction selection: the lowering context and operand helpers.

``LowererBase`` turns PTX operands into machine operands (the low or high half of a
64-bit register, a narrow value extended, a predicate); the op families in
``isel_alu``, ``isel_memory`` and ``isel_warp`` build on it.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from compiler.errors import CompileError
from compiler.machine.isa import SPECIAL_REGS, Guard, Imm, Instr, Op, Operand, Pred, Reg, ZERO
from compiler.ptx_parse import PImm, PReg, PSpecial, PSym, PtxInstr, PtxKernel

WIDE = ("u64", "s64", "b64")
SIGNED_CMP = {"lt": "lt", "le": "le", "gt": "gt", "ge": "ge", "eq": "eq", "ne": "ne",
               "lo": "lo", "ls": "ls", "hi": "hi", "hs": "hs"}
UNSIGNED_CMP = {"lt": "lo", "le": "ls", "gt": "hi", "ge": "hs", "eq": "eq", "ne": "ne",
                 "lo": "lo", "ls": "ls", "hi": "hi", "hs": "hs"}
BAR_RED_COUNTER = "__qgpu_bar_red_counter"
"""Hidden shared word used to lower bar.red (``MemoryOps.bar_red``)."""
VOTE_YES, VOTE_NO = "__qgpu_vote_yes", "__qgpu_vote_no"
"""Hidden shared words used to lower votes across 4-lane warps (``WarpOps.wide_vote``)."""
STACK_POINTERS = ("%SP", "%SPL")
"""nvcc's and clang's stack pointers: offsets into the thread's local frame, which starts at 0."""
IGNORED_OPS = {"membar", "fence", "prefetch", "prefetchu", "pmevent", "nanosleep"}


def ptx_constants(kernel: PtxKernel) -> dict[str, int]:
    """PTX registers written exactly once, by ``mov`` of an immediate (nvcc puts shuffle
    and vote member masks in such registers)."""
    writes: dict[str, int] = {}
    value: dict[str, int] = {}
    for ins in kernel.body:
        if isinstance(ins, PtxInstr) and ins.operands and isinstance(ins.operands[0], PReg):
            name = ins.operands[0].name
            writes[name] = writes.get(name, 0) + 1
            if ins.base == "mov" and len(ins.operands) == 2 and isinstance(ins.operands[1], PImm) \
                    and ins.guard is None:
                value[name] = ins.operands[1].value & 0xFFFFFFFF
    return {k: v for k, v in value.items() if writes[k] == 1}


def spans_warps(mask: int, lanes: int = 4) -> bool:
    """Does a 32-lane member mask name lanes of more than one of our ``lanes``-lane warps?"""
    return len({bit // lanes for bit in range(32) if mask >> bit & 1}) > 1


def type_of(ins: PtxInstr) -> str:
    for p in reversed(ins.parts[1:]):
        if p[:1] in "usbfp" and p[1:].isdigit() or p == "pred":
            return p
    return ""


def is_signed(t: str) -> bool:
    return t.startswith("s")


@dataclass
class LowerCtx:
    kernel: PtxKernel
    filename: str
    shared_offsets: dict[str, int]
    hi: set[str]
    params: dict[str, int]
    shared_ptrs: set[str]
    local_ptrs: set[str] = field(default_factory=set)
    consts: dict[str, int] = field(default_factory=dict)
    div_cache: dict = field(default_factory=dict)
    """(signedness, divisor) -> (|divisor|, reciprocal) temporaries already computed in the
    current basic block (``isel_div``); cleared at block ends and when the divisor is written."""
    native_ops: bool = False
    """Emit div/rem/prmt as the machine's own ops instead of their expansions (``isel_div``,
    ``isel_prmt``): the fallback for programs that do not fit once expanded (the interpreter
    runs them; the circuit has neither a divider nor a byte permuter, so the model backend
    reports them as unsupported)."""
    guarded_itself: bool = False
    """Set by an op lowering that put the PTX guard on its result itself (its temporaries,
    pure arithmetic, run in every lane); ``_Lowerer.lower`` then adds no guards."""
    tmp: int = 0
    out: list[Instr] = field(default_factory=list)
    ins: PtxInstr | None = None

    def err(self, msg: str) -> CompileError:
        line = self.ins.line if self.ins else None
        return CompileError(msg, file=self.filename, line=line)

    def take(self) -> list[Instr]:
        out, self.out = self.out, []
        return out

    def _strength_reduce(self, dst, srcs, guard) -> bool:
        """Multiplication by a constant with one or two set bits becomes shifts (and an add), as
        GPU compilers do: ``x * 2^p == x << p`` and ``x * (2^p + 2^q) == (x << p) + (x << q)``,
        exact mod 2^32. Emits the replacement and returns True, or returns False."""
        a, b = srcs
        if isinstance(a, Imm) and not isinstance(b, Imm):
            a, b = b, a
        if not isinstance(b, Imm) or isinstance(a, Imm):
            return False
        v = b.value & 0xFFFFFFFF
        bits = [k for k in range(32) if v >> k & 1]
        if v <= 1 or len(bits) > 2:
            return False
        line = self.ins.line if self.ins else None
        if len(bits) == 1:
            self.out.append(Instr(Op.SHL, dst, (a, Imm(bits[0])), "", guard, None, line))
            return True
        q, p = bits
        hi, lo = self.temp(), self.temp()
        self.out.append(Instr(Op.SHL, hi, (a, Imm(p)), "", None, None, line))
        if q:
            self.out.append(Instr(Op.SHL, lo, (a, Imm(q)), "", None, None, line))
        self.out.append(Instr(Op.ADD, dst, (hi, lo if q else a), "", guard, None, line))
        return True

    def temp(self) -> Reg:
        self.tmp += 1
        return Reg(f"t{self.tmp}")

    def temp_pred(self) -> Pred:
        self.tmp += 1
        return Pred(f"tp{self.tmp}")

    def emit(self, op: Op, dst=None, srcs=(), mod: str = "", guard: Guard | None = None,
             dst2: Pred | None = None) -> None:
        if op is Op.MUL and len(srcs) == 2 and self._strength_reduce(dst, srcs, guard):
            return
        line = self.ins.line if self.ins else None
        if op is Op.NEG:  # -a == 0 - a (mod 2^32): one op of the subtractor
            self.out.append(Instr(Op.SUB, dst, (Imm(0), srcs[0]), "", guard, None, line))
            return
        if op is Op.ABS:  # |a| == max.s(a, 0 - a); |INT_MIN| == INT_MIN either way
            t = self.temp()
            self.out.append(Instr(Op.SUB, t, (Imm(0), srcs[0]), "", None, None, line))
            self.out.append(Instr(Op.MAX_S, dst, (srcs[0], t), "", guard, None, line))
            return
        self.out.append(Instr(op, dst, tuple(srcs), mod, guard, dst2,
                              self.ins.line if self.ins else None))


def is_64bit_name(ctx: LowerCtx, name: str) -> bool:
    """nvcc and clang both name every 64-bit register ``%rd<N>``."""
    return name.startswith("%rd")




class LowererBase:
    """Operand helpers; every ``op_NAME`` method of the mixins lowers PTX opcode NAME."""

    def __init__(self, ctx: LowerCtx):
        self.c = ctx

    def lo(self, op) -> Operand:
        c = self.c
        if isinstance(op, PReg):
            if op.neg:
                raise c.err(f"negated operand {op.name} where a value is expected")
            return Reg(op.name[1:] + (".lo" if is_64bit_name(c, op.name) else ""))
        if isinstance(op, PImm):
            return Imm(op.value)
        if isinstance(op, PSym):
            if op.name in c.shared_offsets:
                return Imm(c.shared_offsets[op.name])
            if op.name.startswith("__local_depot"):
                return Imm(0)  # the thread's local frame starts at local address 0
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
            if not is_64bit_name(c, op.name):
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
        if is_signed(t):
            self.c.emit(Op.SHL, tmp, (v, Imm(32 - bits)))
            self.c.emit(Op.SHR_S, tmp, (tmp, Imm(32 - bits)))
        else:
            self.c.emit(Op.AND, tmp, (v, Imm((1 << bits) - 1)))
        return tmp

    def dst(self, op) -> Reg:
        if not isinstance(op, PReg):
            raise self.c.err(f"destination must be a register, got {op}")
        return Reg(op.name[1:] + (".lo" if is_64bit_name(self.c, op.name) else ""))

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
        """The four per-launch registers of a 1-D launch (``tid.x ntid.x ctaid.x nctaid.x``) and
        ``laneid`` are read as they are; every other special register follows from them
        (docs/machine.md, "Special registers"), so the kernel compiler computes it from them with
        ALU ops, as the machine defines it: the ``.y``/``.z`` parts are constants, ``warpid``
        and ``nwarpid`` come from ``tid.x`` / ``ntid.x``, ``lanemask_*`` from ``laneid``."""
        name = op.name
        if name not in SPECIAL_REGS:
            raise self.c.err(f"special register %{name} is not supported")
        emit = self.c.emit
        if name in _CONSTANT_SREGS:
            emit(Op.MOV, dst, (Imm(_CONSTANT_SREGS[name]),))
        elif name == "warpid":      # tid.x / 32
            t = self.c.temp()
            emit(Op.SREG, t, (), "tid.x")
            emit(Op.SHR_U, dst, (t, Imm(5)))
        elif name == "nwarpid":     # ceil(ntid.x / 32)
            t, u = self.c.temp(), self.c.temp()
            emit(Op.SREG, t, (), "ntid.x")
            emit(Op.ADD, u, (t, Imm(31)))
            emit(Op.SHR_U, dst, (u, Imm(5)))
        elif name.startswith("lanemask_"):
            lane = self.c.temp()
            emit(Op.SREG, lane, (), "laneid")
            base, minus_one = _LANEMASKS[name]
            if minus_one:           # lt = (1 << lane) - 1, le = (2 << lane) - 1
                t = self.c.temp()
                emit(Op.SHL, t, (Imm(base), lane))
                emit(Op.ADD, dst, (t, Imm(-1)))
            else:                   # eq = 1 << lane, gt = 0xFFFFFFFE << lane, ge = 0xFFFFFFFF << lane
                emit(Op.SHL, dst, (Imm(base), lane))
        else:
            emit(Op.SREG, dst, (), name)

    # --- instructions --------------------------------------------------------------------------

    def _wide(self, ins: PtxInstr) -> bool:
        return type_of(ins) in WIDE

    def _unsupported_wide(self, ins: PtxInstr) -> CompileError:
        return self.c.err(f"64-bit '{ins.opcode}' whose upper 32 bits matter is not supported "
                          "(the machine is 32-bit; use int/unsigned values)")

    def _narrow_only(self, ins: PtxInstr) -> None:
        if self._wide(ins):
            raise self._unsupported_wide(ins)



_CONSTANT_SREGS = {"tid.y": 0, "tid.z": 0, "ctaid.y": 0, "ctaid.z": 0,
                   "ntid.y": 1, "ntid.z": 1, "nctaid.y": 1, "nctaid.z": 1}
"""Special registers that are constants in a 1-D launch."""
_LANEMASKS = {"lanemask_eq": (1, False), "lanemask_lt": (1, True), "lanemask_le": (2, True),
              "lanemask_gt": (0xFFFFFFFE, False), "lanemask_ge": (0xFFFFFFFF, False)}
"""lanemask_X = (base << laneid) [- 1]; a shift by 32 or more gives 0 (machine shl)."""
