"""The machine's instruction set: opcodes, operands, instructions, blocks.

One table (:data:`OPS`) lists every opcode with its operand shape and a one-line
meaning; docs/machine.md is written from the same facts. The arithmetic meaning
of each ALU opcode lives in :mod:`compiler.machine.semantics`; the interpreter
(:mod:`engine.interpreter`) is the executable definition of everything else.

Registers are written ``r0..r15`` (``r0`` always reads 0), predicates ``p0..p3``.
Before register allocation the same classes hold virtual names (strings).
"""

from __future__ import annotations

import enum
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Union

if TYPE_CHECKING:
    from compiler.machine.config import MachineConfig


@dataclass(frozen=True)
class Reg:
    """A general 32-bit register: ``int`` after allocation, ``str`` (virtual) before."""

    n: int | str

    def __str__(self) -> str:
        return f"r{self.n}" if isinstance(self.n, int) else f"%{self.n}"


@dataclass(frozen=True)
class Pred:
    """A 1-bit predicate register."""

    n: int | str

    def __str__(self) -> str:
        return f"p{self.n}" if isinstance(self.n, int) else f"%{self.n}"


@dataclass(frozen=True)
class Imm:
    """A 32-bit immediate, stored as its unsigned bit pattern."""

    value: int

    def __post_init__(self) -> None:
        object.__setattr__(self, "value", self.value & 0xFFFFFFFF)

    def __str__(self) -> str:
        v = self.value
        signed = v - (1 << 32) if v & 0x80000000 else v
        return str(signed) if -4096 <= signed <= 4096 else hex(v)


Operand = Union[Reg, Imm]
ZERO = Reg(0)


class Kind(enum.Enum):
    ALU = "alu"  # dst <- f(srcs), per lane
    PRED = "pred"  # predicate logic / compare
    SPECIAL = "special"  # launch constants: special registers and kernel parameters
    MEMORY = "memory"
    WARP = "warp"  # cross-lane: shuffles and votes


@dataclass(frozen=True)
class OpInfo:
    kind: Kind
    srcs: str
    """Operand shape: one letter per source, ``r`` register-or-immediate, ``p`` predicate."""
    dst: str
    """``r`` general register, ``p`` predicate, ``rp`` register + optional predicate, ``-`` none."""
    meaning: str


class Op(enum.Enum):
    MOV = "mov"
    ADD = "add"
    SUB = "sub"
    MUL = "mul"
    MULHI_S = "mulhi.s"
    MULHI_U = "mulhi.u"
    DIV_S = "div.s"
    DIV_U = "div.u"
    REM_S = "rem.s"
    REM_U = "rem.u"
    MIN_S = "min.s"
    MIN_U = "min.u"
    MAX_S = "max.s"
    MAX_U = "max.u"
    ABS = "abs"
    NEG = "neg"
    AND = "and"
    OR = "or"
    XOR = "xor"
    NOT = "not"
    SHL = "shl"
    SHR_U = "shr.u"
    SHR_S = "shr.s"
    POPC = "popc"
    CLZ = "clz"
    BREV = "brev"
    PRMT = "prmt"
    SELP = "selp"
    SETP = "setp"
    PAND = "and.pred"
    POR = "or.pred"
    PXOR = "xor.pred"
    PNOT = "not.pred"
    PMOV = "mov.pred"
    SREG = "sreg"
    PARAM = "param"
    LD = "ld"
    ST = "st"
    ATOM = "atom"
    SHFL = "shfl"
    VOTE = "vote"


OPS: dict[Op, OpInfo] = {
    Op.MOV: OpInfo(Kind.ALU, "r", "r", "d = a"),
    Op.ADD: OpInfo(Kind.ALU, "rr", "r", "d = a + b (mod 2^32)"),
    Op.SUB: OpInfo(Kind.ALU, "rr", "r", "d = a - b (mod 2^32)"),
    Op.MUL: OpInfo(Kind.ALU, "rr", "r", "d = low 32 bits of a * b"),
    Op.MULHI_S: OpInfo(Kind.ALU, "rr", "r", "d = high 32 bits of the signed 64-bit product"),
    Op.MULHI_U: OpInfo(Kind.ALU, "rr", "r", "d = high 32 bits of the unsigned 64-bit product"),
    Op.DIV_S: OpInfo(Kind.ALU, "rr", "r", "d = a / b, signed, truncated toward zero"),
    Op.DIV_U: OpInfo(Kind.ALU, "rr", "r", "d = a / b, unsigned"),
    Op.REM_S: OpInfo(Kind.ALU, "rr", "r", "d = a % b, signed, sign of a"),
    Op.REM_U: OpInfo(Kind.ALU, "rr", "r", "d = a % b, unsigned"),
    Op.MIN_S: OpInfo(Kind.ALU, "rr", "r", "d = min(a, b), signed"),
    Op.MIN_U: OpInfo(Kind.ALU, "rr", "r", "d = min(a, b), unsigned"),
    Op.MAX_S: OpInfo(Kind.ALU, "rr", "r", "d = max(a, b), signed"),
    Op.MAX_U: OpInfo(Kind.ALU, "rr", "r", "d = max(a, b), unsigned"),
    Op.ABS: OpInfo(Kind.ALU, "r", "r", "d = |a| (abs(INT_MIN) = INT_MIN)"),
    Op.NEG: OpInfo(Kind.ALU, "r", "r", "d = -a (mod 2^32)"),
    Op.AND: OpInfo(Kind.ALU, "rr", "r", "d = a & b"),
    Op.OR: OpInfo(Kind.ALU, "rr", "r", "d = a | b"),
    Op.XOR: OpInfo(Kind.ALU, "rr", "r", "d = a ^ b"),
    Op.NOT: OpInfo(Kind.ALU, "r", "r", "d = ~a"),
    Op.SHL: OpInfo(Kind.ALU, "rr", "r", "d = a << b; b >= 32 gives 0"),
    Op.SHR_U: OpInfo(Kind.ALU, "rr", "r", "d = a >> b, logical; b >= 32 gives 0"),
    Op.SHR_S: OpInfo(Kind.ALU, "rr", "r", "d = a >> b, arithmetic; b >= 32 gives the sign fill"),
    Op.POPC: OpInfo(Kind.ALU, "r", "r", "d = number of 1 bits in a"),
    Op.CLZ: OpInfo(Kind.ALU, "r", "r", "d = leading zero bits of a (32 for 0)"),
    Op.BREV: OpInfo(Kind.ALU, "r", "r", "d = a with its 32 bits reversed"),
    Op.PRMT: OpInfo(Kind.ALU, "rrr", "r", "d = byte permute of {b, a} by selector c (PTX prmt default mode)"),
    Op.SELP: OpInfo(Kind.ALU, "rrp", "r", "d = c ? a : b"),
    Op.SETP: OpInfo(Kind.PRED, "rr", "p", "p = a CMP b; CMP in eq ne lt le gt ge (signed), lo ls hi hs (unsigned)"),
    Op.PAND: OpInfo(Kind.PRED, "pp", "p", "p = a and b"),
    Op.POR: OpInfo(Kind.PRED, "pp", "p", "p = a or b"),
    Op.PXOR: OpInfo(Kind.PRED, "pp", "p", "p = a xor b"),
    Op.PNOT: OpInfo(Kind.PRED, "p", "p", "p = not a"),
    Op.PMOV: OpInfo(Kind.PRED, "p", "p", "p = a"),
    Op.SREG: OpInfo(Kind.SPECIAL, "", "r", "d = special register NAME of this lane (tid, ntid, ctaid, nctaid, laneid, lanemask_*)"),
    Op.PARAM: OpInfo(Kind.SPECIAL, "r", "r", "d = kernel parameter number a (pointer params hold byte addresses)"),
    Op.LD: OpInfo(Kind.MEMORY, "rr", "r", "d = mem[(a + b) / 4] in SPACE (global, this CTA's shared, or this thread's local)"),
    Op.ST: OpInfo(Kind.MEMORY, "rrr", "-", "mem[(a + b) / 4] = c in SPACE"),
    Op.ATOM: OpInfo(Kind.MEMORY, "rrrr", "r", "d = old mem[(a + b) / 4]; mem = OP(old, c[, d2]); lanes in lane order"),
    Op.SHFL: OpInfo(Kind.WARP, "rrr", "rp", "d = a of source lane (PTX shfl.sync MODE, b = lane/offset, c = clamp|segmask)"),
    Op.VOTE: OpInfo(Kind.WARP, "p", "r", "any/all/uni: p-dst over the member lanes; ballot: d = mask of lanes with a; active: d = mask of the lanes executing it"),
}

ALU_OPS = frozenset(op for op, info in OPS.items() if info.kind is Kind.ALU and op is not Op.SELP)
SETP_CMPS = ("eq", "ne", "lt", "le", "gt", "ge", "lo", "ls", "hi", "hs")
ATOM_OPS = ("add", "min.s", "min.u", "max.s", "max.u", "exch", "cas", "and", "or", "xor", "inc", "dec")
SHFL_MODES = ("up", "down", "bfly", "idx")
VOTE_MODES = ("any", "all", "ballot", "uni", "active")
SPECIAL_REGS = (
    "tid.x", "tid.y", "tid.z", "ntid.x", "ntid.y", "ntid.z",
    "ctaid.x", "ctaid.y", "ctaid.z", "nctaid.x", "nctaid.y", "nctaid.z",
    "laneid", "warpid", "nwarpid",
    "lanemask_eq", "lanemask_lt", "lanemask_le", "lanemask_gt", "lanemask_ge",
)


@dataclass(frozen=True)
class Guard:
    """``@p`` / ``@!p``: the instruction only acts in lanes where the predicate holds."""

    pred: Pred
    negate: bool = False

    def __str__(self) -> str:
        return f"@{'!' if self.negate else ''}{self.pred}"


@dataclass(frozen=True)
class Instr:
    op: Op
    dst: Reg | Pred | None = None
    srcs: tuple[Operand | Pred, ...] = ()
    mod: str = ""
    """Opcode modifier: SETP comparison, SREG name, LD/ST/ATOM space (and ATOM op as
    ``space.op``), SHFL/VOTE mode."""
    guard: Guard | None = None
    dst2: Pred | None = None
    """Second destination: the in-range predicate of SHFL."""
    line: int | None = None
    """PTX source line this instruction came from (for listings and errors)."""

    def __str__(self) -> str:
        name = self.op.value + (f".{self.mod}" if self.mod else "")
        outs = [str(d) for d in (self.dst, self.dst2) if d is not None]
        dsts = "|".join(outs)
        ins = ", ".join(str(s) for s in self.srcs)
        body = f"{name:<14} {dsts}{', ' if dsts and ins else ''}{ins}"
        return f"{self.guard} {body}" if self.guard else body

    def regs_read(self) -> list[Reg | Pred]:
        out: list[Reg | Pred] = [s for s in self.srcs if isinstance(s, (Reg, Pred))]
        if self.guard is not None:
            out.append(self.guard.pred)
        return out

    def regs_written(self) -> list[Reg | Pred]:
        return [d for d in (self.dst, self.dst2) if d is not None]


# --- block terminators: how lanes leave a block --------------------------------------------


@dataclass(frozen=True)
class Jump:
    """All lanes continue at ``target``."""

    target: int | str


@dataclass(frozen=True)
class Branch:
    """Lanes where ``guard`` holds go to ``target``, the others to ``fallthrough`` (divergence)."""

    guard: Guard
    target: int | str
    fallthrough: int | str


@dataclass(frozen=True)
class Exit:
    """Lanes leave the kernel; with a guard only lanes where it holds, the rest go to ``fallthrough``."""

    guard: Guard | None = None
    fallthrough: int | str | None = None


@dataclass(frozen=True)
class Barrier:
    """``bar.sync``: lanes wait until every non-exited lane of the CTA has arrived, then go to ``target``."""

    target: int | str


Terminator = Union[Jump, Branch, Exit, Barrier]


def terminator_str(t: Terminator) -> str:
    if isinstance(t, Jump):
        return f"jump      B{t.target}" if isinstance(t.target, int) else f"jump {t.target}"
    if isinstance(t, Branch):
        return f"branch    {t.guard} -> B{t.target} else B{t.fallthrough}"
    if isinstance(t, Barrier):
        return f"bar.sync  -> B{t.target}"
    if t.guard is None:
        return "exit"
    return f"exit      {t.guard} else B{t.fallthrough}"


def successors(t: Terminator) -> list[int | str]:
    if isinstance(t, Jump) or isinstance(t, Barrier):
        return [t.target]
    if isinstance(t, Branch):
        return [t.target, t.fallthrough]
    return [t.fallthrough] if t.fallthrough is not None else []


def sort_regs(regs) -> list:
    """Registers before predicates, each by number (for listings and files)."""
    return sorted(regs, key=lambda d: (isinstance(d, Pred), d.n))


@dataclass
class Block:
    """One ROM entry: what a single ``EXEC(b,w)`` forward pass runs for the warp's lanes at PC b."""

    index: int
    instrs: list[Instr]
    term: Terminator
    ptx_lines: tuple[int, ...] = ()
    cuda_lines: tuple[int, ...] = ()
    label: str = ""
    """The PTX label (or ``entry``) of the basic block this chunk came from."""
    serial: bool = False
    """The block runs for one lane at a time, lowest lane first, and its warp keeps the turn while
    any of its running lanes is at a serial block (an atomic's read-modify-write, in one block or
    in parts that go on downwards: compiler/isel_atomic.py; docs/machine.md, "Atomics")."""
    temps: frozenset = frozenset()
    """The block's *temporaries*: registers and predicates (``Reg``/``Pred``) it writes that no
    later block reads. The rest of the block sees their new values; the register file keeps the
    old ones, and no writeback token carries them (compiler/block_temps.py; docs/machine.md,
    "Temporaries")."""


@dataclass
class Program:
    """A compiled kernel: the ROM image plus everything needed to launch it."""

    kernel: str
    blocks: list[Block]
    params: list["ParamInfo"]
    shared_words: int
    """Shared memory words each CTA needs."""
    regs_used: int
    preds_used: int
    local_words: int = 0
    """Local (per-thread) memory words each thread needs: stack arrays and register spills."""
    spill_words: int = 0
    """Of ``local_words``, those holding spilled registers."""
    ptx: str = ""
    source: str = ""
    source_path: str = ""
    shared_symbols: dict[str, int] = field(default_factory=dict)
    """Shared variable name -> byte offset within the CTA's shared region."""
    cuda_line_of: dict[int, int] = field(default_factory=dict)
    """PTX line -> CUDA source line (from the PTX's .loc directives)."""
    unroll: str = "default"
    """How loops were compiled: ``default``, ``rolled`` or ``none`` (see kernel_compiler.UNROLL_LEVELS);
    anything but ``default`` means the kernel only fitted with less unrolling."""
    machine: "MachineConfig | None" = None
    """The machine the kernel compiler split the blocks for; running the program on another is refused
    (``config.check_same_machine``). ``None`` only for programs written by hand in tests."""

    def listing(self) -> str:
        out = []
        for b in self.blocks:
            where = f"  ; {b.label}" + (f", ptx line {b.ptx_lines[0]}" if b.ptx_lines else "")
            out.append(f"B{b.index}:{where}" + ("  (serial: one lane at a time)" if b.serial else ""))
            if b.temps:
                out.append("    ; temporaries (not written back): " + " ".join(map(str, sort_regs(b.temps))))
            for ins in b.instrs:
                out.append(f"    {ins}")
            out.append(f"    {terminator_str(b.term)}")
        return "\n".join(out)


@dataclass(frozen=True)
class ParamInfo:
    name: str
    """CUDA parameter name (used on the command line)."""
    ctype: str
    """CUDA type as written (e.g. ``const int*``)."""
    is_pointer: bool
    unsigned: bool
    """Element (or scalar) is unsigned: decides how values are printed."""
