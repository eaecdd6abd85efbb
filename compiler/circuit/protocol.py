"""The token protocol: every token the GPU model reads or writes, with a readable name.

A launch is one token sequence (docs/circuit.md, "Token protocol"):

    <bos>  program (ROM records)  memory (M records)  constants (K records)  GO
           EXEC.b.w.m  R/P/M records of that step ...  EXEC.b.w.m ...  END

* **ROM record** ``I.b.s  F.f.x ...`` — instruction slot ``s`` of block ``b`` (slot 8 is
  the block's terminator): each ``F.f.x`` token says field ``f`` holds byte ``x``. Only
  non-zero fields are sent: an unwritten state row reads as 0.
* **Value**: one ``S.x`` token when the 32-bit value is a sign-extended byte
  (-128..127), otherwise four tokens ``B0.x B1.x B2.x B3.x`` (little-endian bytes).
* **Lane value**: the same with the lane in the value's first token — ``S.l.x`` or
  ``B0.l.x B1.x B2.x B3.x`` — for register records, whose address names no lane.
* **R record** ``R.r lane-value lane-value ...`` — register r of the lanes named in the lane
  values gets each one's value (lane-parallel: one address for every lane that writes r).
  **P record** ``P.l.p.v`` — lane l's predicate p gets v (one token).
  **M record** ``M.w value`` — memory word w gets the value (the memory image in the prompt);
  in a trace ``M.w.l.k value``: the k-th memory-writing instruction of the block (st/atom,
  from 0 in program order) wrote word w from lane l.
  **K record** ``K.i value`` — launch constant i (kernel parameters, sizes, thread ids).
* ``GO`` ends the prompt; the model then writes the trace: ``EXEC.b.w.m`` (block b runs for
  warp w in one forward pass, in the lanes of the active mask m: bit l = lane l, 1..15),
  the records of that step's register, predicate and memory
  writes (registers ascending, each with its writing lanes in order; then predicates, lanes in
  order; then memory writes in program order), ``BAR.c.p`` when the step released CTA c's barrier (p: the release count's
  parity), and finally ``END``.

Every record starts with an *address* token (``I``, ``R``, ``M``, ``K``) followed by payload
tokens. The circuit latches the last address in a state row of its first layer, so the
payload tokens that follow know where they go (docs/circuit.md, "Latch"); the lane is latched
apart from the rest, so a lane value (``S.l.x``, ``B0.l.x``) changes the lane and keeps the
register.

Token names are the tokenizer's words; this module is plain Python and is the
specification the circuit is checked against (the interpreter's events, encoded here,
are the expected trace).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property

from compiler.errors import CompileError
from compiler.machine.config import DEFAULT, MachineConfig
from compiler.machine.isa import (
    ATOM_OPS, SETP_CMPS, SHFL_MODES, SPECIAL_REGS, VOTE_MODES, Barrier, Branch, Exit, Imm,
    Instr, Jump, Op, Pred, Program, Reg,
)

SPECIALS = ("<pad>", "<bos>", "<unk>", "GO", "END")
FIELDS = ("op", "guard", "dst", "dst2", "a", "b", "c", "d",
          "imm0", "imm1", "imm2", "imm3", "jmm0", "jmm1", "jmm2", "jmm3")
"""Fields of one ROM instruction word (each one byte): opcode, guard, destinations, operand
sources a..d, and two 32-bit immediates (imm, jmm). The terminator slot uses op, guard, a, b,
and dst for the serial flags (``SER_*``)."""
SLOTS_PER_BLOCK = 9  # 8 instructions + the terminator
TERM_SLOT = 8
SPACES = ("global", "shared", "local")


def opcode_table() -> list[tuple[str, Op | None]]:
    """Opcode ids of the ROM: every (op, modifier) pair the machine has, as (name, op); id 0 = no
    instruction."""
    table: list[tuple[str, Op | None]] = [("nop", None)]
    for op in Op:
        if op is Op.SETP:
            mods = SETP_CMPS
        elif op is Op.SREG:
            mods = SPECIAL_REGS
        elif op in (Op.LD, Op.ST):
            mods = SPACES
        elif op is Op.ATOM:
            mods = tuple(f"{s}.{a}" for s in ("global", "shared") for a in ATOM_OPS)
        elif op is Op.SHFL:
            mods = SHFL_MODES
        elif op is Op.VOTE:
            mods = VOTE_MODES
        else:
            mods = ("",)
        table += [(f"{op.value}.{m}" if m else op.value, op) for m in mods]
    return table


def opcode_name(ins: Instr) -> str:
    """The ROM opcode name of an instruction (``setp.lt``, ``ld.global``, ``add``)."""
    return ins.op.value + (f".{ins.mod}" if ins.mod else "")


OPCODES = [name for name, _ in opcode_table()]
OPCODE_OPS = [op for _, op in opcode_table()]
"""The machine op of each opcode id (None for id 0)."""
OPCODE_ID = {n: i for i, n in enumerate(OPCODES)}
TERMINATORS = ("none", "jump", "branch", "exit", "bar")

# Operand source codes (fields a..d): where an instruction's operand comes from.
SRC_ZERO = 0                   # the constant 0 (r0, or no operand)
SRC_REG = 0                    # 1..15: register r, read from the register file
SRC_FWD = 16                   # 16+j: result of slot j of this block (forwarded in the pass)
SRC_IMM = 32                   # the slot's first immediate (imm0..imm3)
SRC_JMM = 33                   # the slot's second immediate (jmm0..jmm3)
SRC_PRED = 40                  # 40+p: predicate p
SRC_PFWD = 48                  # 48+j: predicate result of slot j
DST_PRED = 16                  # dst codes: 1..15 register, 16+p predicate
GUARD_PRED = 1                 # guard byte = (source << 1) | negate; source 1+p: predicate p,
GUARD_PFWD = 8                 # 8+j: the predicate result of slot j of this block (0: no guard)


@dataclass(frozen=True)
class Token:
    """A circuit token's name, parsed (``Token.parse``); ``str()`` gives the name back. The one
    reader of the names ``Vocab.words`` lists, for the engine, the debugger and the chat.

    ``kind`` is the part before the first dot (``EXEC``, ``BAR``, ``R``, ``P``, ``M``, ``K``, ``S``,
    ``B0``..``B3``, ``I``, ``F``) or a whole special (``GO``, ``END``, ``<pad>``...); ``args`` the numbers
    after it, the lane left out; ``lane`` the lane of a lane-parallel record (``S.l.x``, ``B0.l.x``,
    ``P.l.p.v``, ``M.a.l.k``), else None. ``F.field.x`` keeps the field's index in FIELDS."""

    text: str
    kind: str
    args: tuple[int, ...] = ()
    lane: int | None = None

    @staticmethod
    def parse(name: str) -> "Token":
        kind, dot, rest = name.partition(".")
        if not dot:
            return Token(name, name)
        parts = rest.split(".")
        if kind == "F":
            return Token(name, kind, (FIELDS.index(parts[0]), int(parts[1])))
        nums = tuple(int(x) for x in parts)
        if (kind in ("S", "B0") and len(nums) == 2) or kind == "P":
            return Token(name, kind, nums[1:], nums[0])
        if kind == "M" and len(nums) == 3:
            return Token(name, kind, (nums[0], nums[2]), nums[1])
        return Token(name, kind, nums)

    def __str__(self) -> str:
        return self.text

    @property
    def is_exec(self) -> bool:
        return self.kind == "EXEC"

    @property
    def exec_fields(self) -> tuple[int, int, int] | None:
        """(block, warp, mask) of an ``EXEC.b.w.m``, else None."""
        return self.args if self.kind == "EXEC" else None  # type: ignore[return-value]

    @property
    def stored_word(self) -> int | None:
        """The memory word a store record ``M.a.l.k`` writes, else None."""
        return self.args[0] if self.kind == "M" and self.lane is not None else None

    @property
    def is_write(self) -> bool:
        """A record that writes a register's lane value (``S.l.x``, ``B0.l.x``), a predicate (``P``) or
        a memory word (``M.a.l.k``)."""
        return self.lane is not None


def is_exec(name: str) -> bool:
    """``Token.parse(name).is_exec``, without parsing the rest."""
    return name.startswith("EXEC.")


@dataclass(frozen=True)
class Vocab:
    cfg: MachineConfig = DEFAULT

    @cached_property
    def words(self) -> list[str]:
        c = self.cfg
        w = list(SPECIALS)
        w += [f"EXEC.{b}.{wp}.{m}" for b in range(c.rom_blocks) for wp in range(c.max_warps)
              for m in range(1, 1 << c.lanes)]
        w += [f"BAR.{cta}.{p}" for cta in range(c.max_warps) for p in (0, 1)]
        w += [f"R.{r}" for r in range(1, c.regs)]
        w += [f"P.{l}.{p}.{v}" for l in range(c.lanes) for p in range(c.preds) for v in (0, 1)]
        w += [f"M.{a}" for a in range(c.mem_words)]
        w += [f"M.{a}.{l}.{k}" for a in range(c.mem_words) for l in range(c.lanes)
              for k in range(c.block.max_stores)]
        w += [f"K.{i}" for i in range(len(constant_names(c)))]
        w += [f"S.{x}" for x in range(-128, 128)]
        w += [f"B{k}.{x}" for k in range(4) for x in range(256)]
        w += [f"S.{l}.{x}" for l in range(c.lanes) for x in range(-128, 128)]
        w += [f"B0.{l}.{x}" for l in range(c.lanes) for x in range(256)]
        w += [f"I.{b}.{s}" for b in range(c.rom_blocks) for s in range(SLOTS_PER_BLOCK)]
        w += [f"F.{f}.{x}" for f in FIELDS for x in range(256)]
        return w

    @cached_property
    def ids(self) -> dict[str, int]:
        return {t: i for i, t in enumerate(self.words)}

    def __len__(self) -> int:
        return len(self.words)

    def encode(self, tokens: list[str]) -> list[int]:
        return [self.ids[t] for t in tokens]

    def decode(self, ids: list[int]) -> list[str]:
        return [self.words[i] for i in ids]


PARAMS = 16  # kernel parameters the circuit holds (constants rows 0..PARAMS-1; ``param`` reads one)


def constant_names(cfg: MachineConfig = DEFAULT, params: int = PARAMS) -> list[str]:
    """Launch constants, in K-record order: what ``param`` and ``sreg`` read, which lanes of
    each warp hold a thread (``present``, 1 or 0), which warps exist (``warp``), and where the
    shared and local windows start (``sbase``, ``lbase``: byte addresses in the flat memory)."""
    names = [f"param{i}" for i in range(params)] + ["ntid", "nctaid"]
    names += [f"tid.{w}.{l}" for w in range(cfg.max_warps) for l in range(cfg.lanes)]
    names += [f"ctaid.{w}" for w in range(cfg.max_warps)]
    names += [f"present.{w}.{l}" for w in range(cfg.max_warps) for l in range(cfg.lanes)]
    names += [f"warp.{w}" for w in range(cfg.max_warps)]
    # byte address of each warp's CTA's shared window and of each thread's local window
    # (0 when the kernel has none): ld/st.shared and ld/st.local add it to the window address
    names += [f"sbase.{w}" for w in range(cfg.max_warps)]
    names += [f"lbase.{w}.{l}" for w in range(cfg.max_warps) for l in range(cfg.lanes)]
    # the CTA of each warp, as 1 << ctaid (never 0, so every existing warp sends it)
    names += [f"cta.{w}" for w in range(cfg.max_warps)]
    return names


def value_tokens(v: int) -> list[str]:
    v &= 0xFFFFFFFF
    s = v - (1 << 32) if v >> 31 else v
    if -128 <= s < 128:
        return [f"S.{s}"]
    return [f"B{k}.{(v >> (8 * k)) & 0xFF}" for k in range(4)]


def lane_value_tokens(lane: int, v: int) -> list[str]:
    """A value of a register record: as ``value_tokens``, with the lane in its first token."""
    toks = value_tokens(v)
    kind, _, x = toks[0].partition(".")
    return [f"{kind}.{lane}.{x}"] + toks[1:]


class CircuitLimit(CompileError):
    """A compiled program the circuit cannot hold (the interpreter may still run it)."""


def _imm_bytes(v: int) -> list[int]:
    v &= 0xFFFFFFFF
    return [(v >> (8 * k)) & 0xFF for k in range(4)]


def encode_instr(ins: Instr, slot: int, block_index: int, written_before: dict,
                 temps: frozenset = frozenset()) -> dict[str, int]:
    """The ROM fields of one instruction (see FIELDS and the SRC_* codes). A destination among the
    block's ``temps`` gets no dst field: later slots read it forwarded (``written_before``), and
    without a destination nothing is written back."""
    name = opcode_name(ins)
    if name not in OPCODE_ID:
        raise CircuitLimit(f"block {block_index}: instruction '{ins}' has no ROM opcode")
    f = {"op": OPCODE_ID[name]}
    if ins.guard is not None:
        f["guard"] = guard_byte(ins.guard, written_before)
        # lanes that skip the instruction keep the destination's old value: its source is field d
        # (a register or a predicate: the register file / predicate file, or an earlier slot)
        if (isinstance(ins.dst, Reg) and ins.dst.n != 0) or isinstance(ins.dst, Pred):
            if len(ins.srcs) > 3:
                raise CircuitLimit(f"block {block_index}: guarded '{ins}' has no free operand field for "
                                   "its destination's old value")
            if isinstance(ins.dst, Pred):
                j = written_before.get(("p", ins.dst.n))
                f["d"] = SRC_PFWD + j if j is not None else SRC_PRED + ins.dst.n
            else:
                j = written_before.get(("r", ins.dst.n))
                f["d"] = SRC_FWD + j if j is not None else ins.dst.n
    for key, d in (("dst", ins.dst), ("dst2", ins.dst2)):
        if d in temps:
            continue
        if isinstance(d, Reg) and d.n != 0:
            f[key] = d.n
        elif isinstance(d, Pred):
            f[key] = DST_PRED + d.n
    imms: list[int] = []
    for key, s in zip("abcd", ins.srcs):
        if isinstance(s, Imm):
            v = s.value & 0xFFFFFFFF
            if v == 0:
                code = SRC_ZERO
            else:
                if v not in imms:
                    if len(imms) == 2:
                        raise CircuitLimit(f"block {block_index}: '{ins}' has three different immediates; "
                                           "a ROM instruction holds two")
                    imms.append(v)
                code = SRC_IMM + imms.index(v)
        elif isinstance(s, Reg):
            j = written_before.get(("r", s.n))
            code = SRC_ZERO if s.n == 0 else (SRC_FWD + j if j is not None else s.n)
        elif isinstance(s, Pred):
            j = written_before.get(("p", s.n))
            code = SRC_PFWD + j if j is not None else SRC_PRED + s.n
        else:
            raise CircuitLimit(f"block {block_index}: operand {s} of '{ins}' cannot be encoded")
        if code:
            f[key] = code
    for name, v in zip(("imm", "jmm"), imms):
        for k, byte in enumerate(_imm_bytes(v)):
            if byte:
                f[f"{name}{k}"] = byte
    return {k: v for k, v in f.items() if v}


def guard_byte(guard, written_before: dict) -> int:
    """The guard field: ``(source << 1) | negate`` with source ``GUARD_PRED + p`` (the predicate
    file) or ``GUARD_PFWD + j`` (slot j of this block wrote the predicate)."""
    j = written_before.get(("p", guard.pred.n))
    src = GUARD_PFWD + j if j is not None else GUARD_PRED + guard.pred.n
    return (src << 1) | int(guard.negate)


SER_SELF, SER_TARGET, SER_FALL = 1, 2, 4
"""Bits of the terminator's ``dst`` field: this block is serial, its target (field a) is, its
fall-through (field b) is (``Block.serial``: one lane at a time; docs/circuit.md, "Atomics")."""


def encode_terminator(term, written: dict | None = None, serial=lambda block: False,
                      self_serial: bool = False) -> dict[str, int]:
    """The terminator's fields; ``serial(b)`` says whether block b is serial."""
    written = written or {}
    if isinstance(term, Jump):
        f = {"op": TERMINATORS.index("jump"), "a": int(term.target)}
    elif isinstance(term, Branch):
        f = {"op": TERMINATORS.index("branch"), "a": int(term.target), "b": int(term.fallthrough),
             "guard": guard_byte(term.guard, written)}
    elif isinstance(term, Exit):
        f = {"op": TERMINATORS.index("exit")}
        if term.guard is not None:
            f["guard"] = guard_byte(term.guard, written)
            f["b"] = int(term.fallthrough)
    elif isinstance(term, Barrier):
        f = {"op": TERMINATORS.index("bar"), "a": int(term.target)}
    else:
        raise CircuitLimit(f"unknown terminator {term!r}")
    target = term.target if isinstance(term, (Jump, Branch, Barrier)) else None
    fall = term.fallthrough if isinstance(term, (Branch, Exit)) else None
    f["dst"] = (SER_SELF * self_serial + SER_TARGET * (target is not None and serial(int(target)))
                + SER_FALL * (fall is not None and serial(int(fall))))
    return {k: v for k, v in f.items() if v}


def encode_rom(program: Program, cfg: MachineConfig = DEFAULT) -> dict[tuple[int, int], dict[str, int]]:
    """ROM image: (block, slot) -> non-zero fields. Forwarding is resolved here, per block."""
    if len(program.blocks) > cfg.rom_blocks:
        raise CircuitLimit(f"{len(program.blocks)} blocks do not fit the {cfg.rom_blocks}-block ROM")
    rom: dict[tuple[int, int], dict[str, int]] = {}
    for blk in program.blocks:
        if len(blk.instrs) > TERM_SLOT:
            raise CircuitLimit(f"block {blk.index} has {len(blk.instrs)} instructions (ROM slots: {TERM_SLOT})")
        written: dict[tuple[str, int], int] = {}
        for s, ins in enumerate(blk.instrs):
            rom[(blk.index, s)] = encode_instr(ins, s, blk.index, written, blk.temps)
            for d in ins.regs_written():
                written[("p" if isinstance(d, Pred) else "r", d.n)] = s
        rom[(blk.index, TERM_SLOT)] = encode_terminator(blk.term, written, lambda b: program.blocks[b].serial,
                                                        blk.serial)
    if program.blocks and program.blocks[0].serial:
        raise CircuitLimit("the entry block is serial (the kernel compiler never makes it so)")
    return rom


def prompt_tokens(program: Program, launch, cfg: MachineConfig = DEFAULT) -> list[str]:
    """The prompt of a launch: program, memory image, launch constants, GO."""
    toks = ["<bos>"]
    for (b, s), fields in sorted(encode_rom(program, cfg).items()):
        if fields:
            toks.append(f"I.{b}.{s}")
            toks += [f"F.{name}.{fields[name]}" for name in FIELDS if fields.get(name)]
    layout = launch.layout
    for name, (base, n) in layout.arrays.items():
        data = launch.args[name]
        for k in range(n):
            if data[k] & 0xFFFFFFFF:
                toks += [f"M.{base + k}"] + value_tokens(data[k])
    for i, v in enumerate(constants(program, launch, cfg)):
        if v & 0xFFFFFFFF:
            toks += [f"K.{i}"] + value_tokens(v)
    return toks + ["GO"]


def constants(program: Program, launch, cfg: MachineConfig = DEFAULT) -> list[int]:
    """Values of the launch constants (same order as constant_names)."""
    names = constant_names(cfg)
    vals = dict.fromkeys(names, 0)
    if len(launch.param_values) > sum(n.startswith("param") for n in names):
        raise CircuitLimit(f"kernel has {len(launch.param_values)} parameters; the circuit holds {PARAMS}")
    for i, v in enumerate(launch.param_values):
        vals[f"param{i}"] = v
    vals["ntid"], vals["nctaid"] = launch.block, launch.grid
    layout = launch.layout
    for k, t in enumerate(launch.threads):
        if program.shared_words:
            vals[f"sbase.{t.warp}"] = 4 * layout.shared_base[t.cta]
        if program.local_words:
            vals[f"lbase.{t.warp}.{t.lane}"] = 4 * (layout.local_base + k * layout.local_words)
        vals[f"tid.{t.warp}.{t.lane}"] = t.tid
        vals[f"cta.{t.warp}"] = 1 << t.cta
        vals[f"ctaid.{t.warp}"] = t.cta
        vals[f"present.{t.warp}.{t.lane}"] = 1
        vals[f"warp.{t.warp}"] = 1
    return [vals[n] & 0xFFFFFFFF for n in names]


Held = dict
"""(warp, lane, register) -> the value the model's register file holds: the last ``R`` record's
(a register never sent holds 0). ``step_tokens`` reads and updates it."""


def step_tokens(ev, held: Held) -> list[str]:
    """The tokens of one EXEC step, from an interpreter ExecEvent. A register whose new value is
    the one it holds (``held``, updated here) sends no record: the circuit compares the same
    way (``guards.GuardBuilder.unchanged``)."""
    toks = [f"EXEC.{ev.block}.{ev.warp}.{ev.mask}"]
    for r in sorted({r for writes in ev.reg_writes.values() for r in writes}):
        record: list[str] = []
        for lane in sorted(ev.reg_writes):
            if r not in ev.reg_writes[lane]:
                continue
            v, key = ev.reg_writes[lane][r] & 0xFFFFFFFF, (ev.warp, lane, r)
            if held.get(key, 0) == v:
                continue
            held[key] = v
            record += lane_value_tokens(lane, v)
        if record:
            toks += [f"R.{r}"] + record
    for lane in sorted(ev.pred_writes):
        for p, v in sorted(ev.pred_writes[lane].items()):
            toks.append(f"P.{lane}.{p}.{int(v)}")
    for (word, v), (k, lane) in zip(ev.mem_writes, ev.mem_write_src):
        toks += [f"M.{word}.{lane}.{k}"] + value_tokens(v)
    toks += [bar_token(cta, n) for cta, n in ev.released]
    return toks


def bar_token(cta: int, n: int) -> str:
    """The release of CTA ``cta``'s barrier for the n-th time (from 1): ``BAR.cta.parity``. The
    parity tells the circuit which arrivals it releases (docs/circuit.md, "Barriers")."""
    return f"BAR.{cta}.{n % 2}"


def trace_tokens(events) -> list[str]:
    """The expected generated tokens of a whole launch (the interpreter's trace, encoded)."""
    out: list[str] = []
    held: Held = {}
    for ev in events:
        out += step_tokens(ev, held)
    return out + ["END"]


@dataclass
class Step:
    """One decoded EXEC step of a token trace."""

    block: int
    warp: int
    mask: int
    """Active lanes (bit l = lane l)."""
    regs: dict[int, dict[int, int]]
    preds: dict[int, dict[int, int]]
    mem: list[tuple[int, int]]
    released: list[tuple[int, int]] = None  # type: ignore[assignment]
    """(CTA, parity) of each barrier release after the step."""

    def __post_init__(self) -> None:
        if self.released is None:
            self.released = []


class TraceError(ValueError):
    """A token sequence that breaks the protocol (reported with the token's index)."""


def parse_trace(tokens: list[str]) -> tuple[list[Step], bool]:
    """Decode generated tokens into steps; returns (steps, ended). Pure token grammar, no arithmetic
    beyond putting bytes back together."""
    steps: list[Step] = []
    i, n = 0, len(tokens)

    def value(at: int, laned: bool = False) -> tuple[int, int]:
        """The value starting at token ``at`` (with ``laned``: a lane value) -> (value, next index)."""
        if at >= n:
            raise TraceError(f"token {at}: value missing at the end of the trace")
        t = tokens[at]
        parts = t.split(".")
        if laned != (len(parts) == 3):
            raise TraceError(f"token {at}: expected a {'lane ' if laned else ''}value, got {t}")
        if parts[0] == "S":
            return int(parts[-1]) & 0xFFFFFFFF, at + 1
        v = 0
        for k in range(4):
            if at + k >= n or not tokens[at + k].startswith(f"B{k}.") or (k and tokens[at + k].count(".") != 1):
                raise TraceError(f"token {at + k}: expected byte B{k}.x, got "
                                 f"{tokens[at + k] if at + k < n else 'end of trace'}")
            v |= int(tokens[at + k].split(".")[-1]) << (8 * k)
        return v, at + 4

    def is_lane_value(at: int) -> bool:
        return at < n and tokens[at].startswith(("S.", "B0.")) and tokens[at].count(".") == 2

    while i < n:
        t = tokens[i]
        kind, _, rest = t.partition(".")
        if t == "END":
            return steps, True
        if kind == "EXEC":
            b, w, m = map(int, rest.split("."))
            steps.append(Step(b, w, m, {}, {}, []))
            i += 1
            continue
        if not steps:
            raise TraceError(f"token {i}: {t} before the first EXEC")
        cur = steps[-1]
        if kind == "R":
            r = int(rest)
            if not is_lane_value(i + 1):
                raise TraceError(f"token {i + 1}: expected a lane value after {t}, got "
                                 f"{tokens[i + 1] if i + 1 < n else 'end of trace'}")
            i += 1
            while is_lane_value(i):
                lane = int(tokens[i].split(".")[1])
                cur.regs.setdefault(lane, {})[r], i = value(i, laned=True)
        elif kind == "P":
            lane, p, v = map(int, rest.split("."))
            cur.preds.setdefault(lane, {})[p] = v
            i += 1
        elif kind == "M":
            word = int(rest.split(".")[0])
            v, i = value(i + 1)
            cur.mem.append((word, v))
        elif kind == "BAR":
            cta, parity = map(int, rest.split("."))
            cur.released.append((cta, parity))
            i += 1
        else:
            raise TraceError(f"token {i}: {t} cannot appear in a launch trace")
    return steps, False
