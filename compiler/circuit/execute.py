"""The execute pipeline: instruction slots of the EXEC's block, one after the other.

Slot s of the block runs in a window of layers (``Schedule``); the windows of
consecutive slots overlap so that fetching and decoding slot s+1 happens while slot s
computes. Per slot s (``B = Schedule.mux(s)``):

====================  =====================================================================
layer                 work
====================  =====================================================================
``B - 3`` mixer/MLP   fetch slot s of the block (ROM head ``rom.s``) → clean field bits
``B - 2`` MLP         decode: op flags, operand sources, immediates (as nibble forms)
``B - 1`` mixer       register read ports a, b, c and the launch-constant port
``B`` MLP             operand mux: forwarded results of earlier slots, immediates
``B + 1..3`` MLPs     adder (add, sub, and the address of ld/st) → ``sum.s``
``B + 4`` MLP         results of mov/add/sub into ``r.s``; address nibbles → word one-hots
``B + 5`` mixer       memory read of a ``ld`` (one key head per lane) → ``r.s``
``B + 1..8`` MLPs     multiplier (``alu_mul``) → ``r.s``, ready two slots later
``B + 9`` MLP         guarded instructions (``guards``): skipped lanes keep the old value
====================  =====================================================================

``param`` and ``sreg`` read the constants file straight into ``r.s``. Ops outside
``OPS`` are not implemented yet: their slot leaves ``r.s`` at 0, and a replay against
the interpreter reports the difference.
"""

from __future__ import annotations

from dataclasses import dataclass

from compiler.circuit.alu_add import build_add_sub
from compiler.circuit.alu_mul import DEPTH as MUL_DEPTH, MUL_OPS, build_mul
from compiler.circuit.alu_logic import BITCOUNT, LOGIC, build_logic
from compiler.circuit.alu_shift import SHIFTS, build_shifts
from compiler.circuit.alu_warp import SHUFFLES, VOTES, WarpOps
from compiler.circuit.layers import GAIN, LayerSpec, Lin, lin
from compiler.circuit.protocol import (
    DST_PRED, OPCODE_ID, PARAMS, SRC_FWD, SRC_IMM, SRC_JMM, SRC_PFWD, SRC_PRED, TERM_SLOT,
)
from compiler.circuit.guards import MERGE_DEPTH, GuardBuilder, bank_parity
from compiler.circuit.rom import build_rom_decode, build_rom_slot
from compiler.circuit.space import Group, Space
from compiler.circuit.tokens import const_row, const_row_count
from compiler.circuit.words import (
    REG_ROWS, and_form, constants_file, memory_file, predicate_file, register_file, value_group,
)

SETP = tuple(f"setp.{c}" for c in ("eq", "ne", "lt", "le", "gt", "ge", "lo", "ls", "hi", "hs"))
SETP_RULES: list[tuple[dict[str, float], float, dict[str, int]]] = [
    ({"zsum": -1.0}, -0.5, {"eq": 1, "ne": -1, "le": 1, "gt": -1}),    # Z = [a − b == 0]
    ({"c": 1.0}, 0.5, {"hs": 1, "hi": 1, "ls": -1}),                     # C
    ({"c": -1.0}, -0.5, {"lo": 1}),                                      # not C
    ({"c": 1.0, "zsum": -1.0}, 0.5, {"hi": -1, "ls": 1}),                # C and Z
    ({"u": 1.0}, 0.5, {"lt": 1, "le": 1, "gt": -1}),                     # u ≥ 1
    ({"u": 1.0}, 1.5, {"lt": -1, "le": -1, "ge": 1, "gt": 1}),           # u = 2
    ({"u": -1.0}, -0.5, {"ge": 1}),                                      # u = 0
]
"""``setp`` as steps on three terms: ``zsum`` = the sum of the nibbles of a − b (0..120), ``c`` =
the subtractor's carry out C = [a ≥ b] unsigned, ``u`` = (1 − C) + X with X = sign(a) xor sign(b)
for the signed modes (0 otherwise), so ``lt = [u == 1]``. Each row is one step (form ≥ threshold)
whose up projection is the form ``{mode: sign}`` of the exclusive mode flags; a mode's result is
the signed sum of its rows, plus 1 for the modes in ``SETP_ONE``. Every step is on only where its
form is within 2 of its threshold — zero as [−zsum ≥ −½], never [zsum ≥ ½] — because a step's
pre-activations are exact in bfloat16 only there (docs/circuit.md, "Units and margins");
``tests/test_setp_rules.py`` checks both."""
SETP_ONE = ("ne", "ls", "gt")
"""The modes computed as 1 minus their complement."""
MINMAX = ("min.s", "min.u", "max.s", "max.u")
LOADS = ("ld.global", "ld.shared", "ld.local")
STORES = ("st.global", "st.shared", "st.local")
PRED_LOGIC = ("and.pred", "or.pred", "xor.pred", "not.pred", "mov.pred")
OPS = ("mov", "add", "sub", *MUL_OPS, "shl", "shr.u", "shr.s", "and", "or", "xor", "not", "popc", "clz", "brev", "selp", *SETP, *PRED_LOGIC,
       *MINMAX, "param", "sreg.tid.x", "sreg.ntid.x", "sreg.ctaid.x", "sreg.nctaid.x",
       "sreg.laneid", *LOADS, *STORES, *VOTES, *SHUFFLES)
"""Opcodes the circuit executes (more arrive with later stages; see docs/circuit.md)."""
DERIVED = {"add-like": ("add", *LOADS, *STORES), "sub-like": ("sub", *SETP, *MINMAX),
           "signed": (*SETP[:6], "min.s", "max.s"), "load": LOADS, "store": STORES,
           "shared": ("ld.shared", "st.shared"), "local": ("ld.local", "st.local"),
           "warp": (*VOTES, *SHUFFLES)}
"""Flags set for a group of opcodes (at most one opcode per slot, so each is 0/1)."""
PERIOD = 5
OPERANDS = "abc"


@dataclass(frozen=True)
class Schedule:
    """Layer indices of every stage (layer 0 is the latch)."""

    slots: int = TERM_SLOT
    first_mux: int = 4

    def mux(self, s: int) -> int:
        return self.first_mux + PERIOD * s

    def fetch(self, s: int) -> int:
        return self.mux(s) - 3

    @property
    def end(self) -> int:
        """The last slot's guard merge (after its memory read and multiply): the writeback's
        first layer."""
        return self.mux(self.slots - 1) + max(6, MUL_DEPTH + 1, MERGE_DEPTH)


def const_rows(warps: int) -> dict[int, int]:
    """Constants file rows (identity: K tokens address rows, see tokens.const_row)."""
    return {r: r for r in range(const_row_count(warps))}


def bits_name(s: int) -> str:
    """The clean-bits bank of a slot: one bank for the instruction slots (each clears it after its
    mux), its own group for the terminator."""
    return f"rom.bits.{TERM_SLOT}" if s == TERM_SLOT else "rom.bits"


def _field_bits(space: Space, s: int, field: str) -> list[int]:
    g = space[bits_name(s)]
    return [g[(field, k)] for k in range(8)]


def _equals(space: Space, s: int, field: str, value: int) -> Lin:
    """A form that is 8 exactly when the field's byte equals ``value`` (else at most 7)."""
    a = space["anchor"].start
    form: Lin = {}
    for k, ch in enumerate(_field_bits(space, s, field)):
        if (value >> k) & 1:
            form[ch] = 1.0
        else:
            form[ch] = -1.0
            form[a] = form.get(a, 0.0) + 1.0
    return form


def _nibble_bits(space: Space, s: int, prefix: str, nib: int) -> list[int]:
    """The four ROM bit channels of nibble ``nib`` of the 32-bit immediate ``imm``/``jmm``, low first."""
    bits = _field_bits(space, s, f"{prefix}{nib // 2}")
    return bits[4 * (nib % 2):4 * (nib % 2) + 4]


def _nibble_form(space: Space, s: int, prefix: str, nib: int) -> Lin:
    """The scalar value (0..15) of nibble ``nib`` of the 32-bit immediate ``imm``/``jmm``."""
    return {ch: float(1 << t) for t, ch in enumerate(_nibble_bits(space, s, prefix, nib))}


class SlotBuilder:
    """Builds every stage of the execute pipeline into the given layers."""

    def __init__(self, space: Space, layers: list[LayerSpec], cfg, sched: Schedule):
        self.sp, self.L, self.cfg, self.sched = space, layers, cfg, sched
        self.a = space["anchor"].start
        self.lanes = cfg.lanes
        self.results = [value_group(space, f"r.{s}", f"result of slot {s} (final value of its destination)",
                                    "execute", lanes=cfg.lanes) for s in range(sched.slots)]
        self.pred_results: list = []
        """Per slot: its predicate result (setp; ``pr.s``)."""
        self.ops: list[Group] = []
        """Per slot: its opcode flags (``op.s``, decode)."""
        self.dsts: list[Group] = []
        """Per slot: its destination register (``dst.s``)."""
        self.pdsts: list[Group] = []
        """Per slot: its destination predicate (``pdst.s``)."""
        self.src: dict[str, Group] = {}
        """Where each operand (a, b, c) and a guarded destination's old value (d) come from: banks
        the slots share, cleared after the operand mux (``src.x``)."""
        self.ctx_warp, self.ctx_lanes = space["ctx.warp"], space["ctx.lanes"]
        """Inputs: the current step's warp and active lanes (the latch)."""
        self.guards = GuardBuilder(self)
        self.warp_ops = WarpOps(self)

    def build(self) -> None:
        for s in range(self.sched.slots):
            self.fetch(s)
            self.decode(s)
            self.operands(s)
            self.alu(s)
            self.memory(s)
            self.warp_ops.build(s)
            self.guards.execute(s)

    # --- fetch and decode -------------------------------------------------------------------
    def fetch(self, s: int) -> None:
        L = self.L[self.sched.fetch(s)]
        build_rom_slot(L, self.sp, s, self.cfg.rom_blocks, raw_name="rom.raw")
        build_rom_decode(L, self.sp, s, raw_name="rom.raw", bits_name="rom.bits")

    def decode(self, s: int) -> None:
        sp, a = self.sp, self.a
        L = self.L[self.sched.fetch(s) + 1]
        ops = sp.add(f"op.{s}", OPS + tuple(DERIVED), kind="scalar",
                     doc=f"slot {s}: opcode flags (0/1); add-like = add, ld or st (the adder computes a + b); "
                     "sub-like = sub, setp, min, max (a - b); signed = a signed compare; load, store, shared, "
                     "local = any ld, any st, a shared / local window access", stage="decode")
        self.ops.append(ops)
        for name in OPS:
            L.gated(a, _equals(sp, s, "op", OPCODE_ID[name]), 8, {a: 1.0}, {ops[name]: 1.0})
        for flag, names in DERIVED.items():
            for name in names:
                L.gated(a, _equals(sp, s, "op", OPCODE_ID[name]), 8, {a: 1.0}, {ops[flag]: 1.0})
        pdst = sp.add(f"pdst.{s}", range(self.cfg.preds), kind="scalar",
                      doc=f"slot {s}: destination predicate (0/1 per predicate)", stage="decode")
        self.pdsts.append(pdst)
        for p in range(self.cfg.preds):
            L.gated(a, _equals(sp, s, "dst", DST_PRED + p), 8, {a: 1.0}, {pdst[p]: 1.0})
            L.gated(a, _equals(sp, s, "dst2", DST_PRED + p), 8, {a: 1.0}, {pdst[p]: 1.0})  # shfl's in-range
        srcs = ([("reg", r) for r in range(1, self.cfg.regs)] + [("fwd", j) for j in range(self.sched.slots)]
                + [("pred", p) for p in range(self.cfg.preds)] + [("pfwd", j) for j in range(self.sched.slots)]
                + [("imm", 0), ("jmm", 0)])
        live = set(srcs[:self.cfg.regs - 1 + s]) | {("pred", p) for p in range(self.cfg.preds)} \
            | {("pfwd", j) for j in range(s)} | {("imm", 0), ("jmm", 0)}
        for x in OPERANDS:
            g = self.src[x] = sp.shared(f"src.{x}", srcs, kind="scalar", doc=f"where operand {x} of the slot "
                                        "being decoded comes from (0/1; bank, cleared after the mux)",
                                        stage="decode")
            for kind, v in (src for src in srcs if src in live):
                code = {"reg": v, "fwd": SRC_FWD + v, "imm": SRC_IMM, "jmm": SRC_JMM, "pred": SRC_PRED + v,
                        "pfwd": SRC_PFWD + v}[kind]
                L.gated(a, _equals(sp, s, x, code), 8, {a: 1.0}, {g[(kind, v)]: 1.0})
        dst = sp.add(f"dst.{s}", range(1, self.cfg.regs), kind="scalar",
                     doc=f"slot {s}: destination register (0/1 per register)", stage="decode")
        self.dsts.append(dst)
        for r in range(1, self.cfg.regs):
            L.gated(a, _equals(sp, s, "dst", r), 8, {a: 1.0}, {dst[r]: 1.0})
        # a guarded instruction: its guard, and where its destination's old value comes from
        self.guards.decode(s, L, lambda field, value: _equals(sp, s, field, value))
        srcd = self.src["d"] = sp.shared("src.d", self.guards.old_value_selectors(), kind="scalar",
                                         doc="where the old value of a guarded instruction's destination "
                                         "comes from (0/1; bank, cleared after the predicate read)",
                                         stage="decode")
        for sel, code in self.guards.old_value_sources(s):
            L.gated(a, _equals(sp, s, "d", code), 8, {a: 1.0}, {srcd[sel]: 1.0})
        L.reads.append("rom.bits")
        L.writes += [f"op.{s}", *(f"src.{x}" for x in OPERANDS), "src.d", f"dst.{s}", f"pdst.{s}"]

    # --- operands ---------------------------------------------------------------------------
    def operands(self, s: int) -> None:
        sp, a = self.sp, self.a
        B = self.sched.mux(s)
        ports = self.L[B - 1]
        vals = self.operand_groups(s)
        sgn = self.sign_groups(s)
        xw = self.ctx_warp
        warps = self.cfg.max_warps
        for x in OPERANDS:
            src = self.src[x]
            query = {REG_ROWS * w + r: (0, and_form({src[("reg", r)]: 1.0, xw[w]: 1.0}, a))
                     for w in range(warps) for r in range(1, self.cfg.regs)}
            ports.heads.append(register_file(sp, f"regs.{s}.{x}", self.cfg.regs, self.lanes, query, vals[x],
                                             warps=warps, signs=sgn.get(x)))
        # launch constants: param (index = immediate, 0..PARAMS-1) and sreg
        ops = self.ops[s]
        warps = self.cfg.max_warps
        rows = const_rows(warps)
        q: dict[int, tuple[int, Lin]] = {}
        for k in range(PARAMS):  # param k: op flag AND immediate == k (imm_is is 1 when equal, else <= 0)
            imm_is = _imm_equals(sp, s, k)
            q[const_row(f"param{k}", warps)] = (0, lin({ops["param"]: GAIN}, {c: GAIN * w for c, w in imm_is.items()},
                                                        (a, -1.5 * GAIN)))
        q[const_row("ntid", warps)] = (0, and_form({ops["sreg.ntid.x"]: 1.0}, a))
        q[const_row("nctaid", warps)] = (0, and_form({ops["sreg.nctaid.x"]: 1.0}, a))
        for w in range(warps):
            # laneid reads the tid row: laneid = tid % 32, and a CTA has at most 16 threads
            # (cross-lane ops read it too: a thread's hardware lane is tid, alu_warp.py)
            q[const_row(f"tid.{w}.0", warps)] = (0, lin({ops["sreg.tid.x"]: GAIN, ops["sreg.laneid"]: GAIN,
                                                          ops["warp"]: GAIN, xw[w]: GAIN}, (a, -1.5 * GAIN)))
            q[const_row(f"ctaid.{w}", warps)] = (0, and_form({ops["sreg.ctaid.x"]: 1.0, xw[w]: 1.0}, a))
        ports.heads.append(constants_file(sp, f"const.{s}", rows, self.lanes, q, self.results[s]))
        ports.reads += ["src.*", f"op.{s}", "ctx.warp", bits_name(s)]  # the immediate selects a param
        ports.writes += [*(vals[x].name for x in OPERANDS), f"r.{s}"]
        # the mux: forwarded results and immediates (register reads already landed in the groups);
        # for operands a and b also each nibble's top bit (the multiplier's signed digits): a
        # register read gives it linearly, an immediate from its ROM bit, a forwarded result by a
        # step on the nibble. An immediate is the same in every lane: one neuron feeds all four.
        M = self.L[B]
        for x in OPERANDS:
            src = self.src[x]
            for i in range(8):
                for kind in ("imm", "jmm"):
                    nib = _nibble_form(sp, s, kind, i)
                    M.gated(a, {src[(kind, 0)]: 1.0}, 1, nib, {vals[x][(lane, i)]: 1.0 for lane in range(self.lanes)})
                    if x in sgn:
                        top = {_nibble_bits(sp, s, kind, i)[3]: 1.0}
                        M.gated(a, {src[(kind, 0)]: 1.0}, 1, top, {sgn[x][(lane, i)]: 1.0 for lane in range(self.lanes)})
                for lane in range(self.lanes):
                    out = {vals[x][(lane, i)]: 1.0}
                    for j in range(s):
                        M.gated(a, {src[("fwd", j)]: 1.0}, 1, {self.results[j][(lane, i)]: 1.0}, out)
                        if x in sgn:
                            M.flag_step(a, {self.results[j][(lane, i)]: 1.0}, 7.5, {sgn[x][(lane, i)]: 1.0},
                                        src[("fwd", j)])
        M.clear(a, sp["rom.bits"])  # free for the next slot's fetch (src.* is cleared at B+2)
        M.reads += ["src.*", *(f"r.{j}" for j in range(s)), "rom.bits"]
        M.writes += [vals[x].name for x in OPERANDS] + [g.name for g in sgn.values()]

    def sign_groups(self, s: int) -> dict:
        """The top bit of each nibble of operands a and b (0/1), for the multiplier's signed
        digits (``alu_mul``); banks like the operands."""
        par = bank_parity(s)
        return {x: self.sp.shared(f"{x.upper()}sg.{par}", [(l, i) for l in range(self.lanes) for i in range(8)],
                                  kind="scalar", doc=f"top bit of each nibble of operand {x} of the {par} slots "
                                  "(0/1; bank)", stage="decode") for x in "ab"}

    def operand_groups(self, s: int) -> dict:
        """Operand banks: two sets, used by even and odd slots (a slot's operands live from its
        register read to its result, overlapping the next slot's read)."""
        par = bank_parity(s)
        return {x: self.sp.shared(f"{x.upper()}.{par}", [(l, i) for l in range(self.lanes) for i in range(8)],
                                  kind="scalar", doc=f"operand {x} of the {par} slots, 4 lanes (bank)",
                                  stage="decode") for x in OPERANDS}

    # --- ALU ----------------------------------------------------------------------------------
    def alu(self, s: int) -> None:
        sp, a = self.sp, self.a
        B = self.sched.mux(s)
        ops = self.ops[s]
        vals = self.operand_groups(s)
        total = sp.shared("sum", [(l, i) for l in range(self.lanes) for i in range(8)], kind="scalar",
                          doc="adder output of the slot in execute (add/sub result, ld/st address; bank)",
                          stage="execute")
        cmp = sp.shared("cmp", [(l, k) for l in range(self.lanes) for k in ("C", "sa", "sb", "X")], kind="scalar",
                        doc="setp: carry out of a - b (a >= b unsigned), signs of a and b, sign a xor sign b (bank)",
                        stage="execute")
        self.total, self.cmp = total, cmp
        self.carry_out = sp.shared("cmp.C", range(self.lanes), kind="scalar", doc="setp: carry out of a - b (bank)",
                                   stage="execute")
        self.adder = build_add_sub(self.L[B + 1:B + 4], sp, a, vals["a"], vals["b"], total, ops["add-like"],
                                   ops["sub-like"], "add", carry_out=self.carry_out)
        self.predicates(s, B, vals, total, cmp)
        self.shifter = build_shifts(self.L[B + 1:B + 4], sp, a, vals["a"], vals["b"], self.results[s],
                                    {n: ops[n] for n in SHIFTS}, self.lanes)
        self.logic = build_logic(self.L[B + 1:B + 5], sp, a, vals["a"], vals["b"], self.results[s],
                                 {n: ops[n] for n in (*LOGIC, *BITCOUNT)}, self.lanes)
        sgn = self.sign_groups(s)
        build_mul(self.L[B + 1:B + 1 + MUL_DEPTH], sp, a, vals["a"], vals["b"], sgn["a"], sgn["b"], self.results[s],
                  {n: ops[n] for n in MUL_OPS}, self.lanes)
        W = self.L[B + 4]
        res = self.results[s]
        A = vals["a"]
        for lane in range(self.lanes):
            for i in range(8):
                out = {res[(lane, i)]: 1.0}
                W.gated(a, {ops["add"]: 1.0, ops["sub"]: 1.0}, 1, {total[(lane, i)]: 1.0}, out)
                W.gated(a, {ops["mov"]: 1.0}, 1, {A[(lane, i)]: 1.0}, out)
                # a store's value rides in its result channels to the writeback stage
                W.gated(a, {ops["store"]: 1.0}, 1, {vals["c"][(lane, i)]: 1.0}, out)
        W.reads += ["sum", vals["a"].name, vals["c"].name, f"op.{s}"]
        W.writes += [f"r.{s}"]

    # --- predicates: setp, selp, predicate logic -----------------------------------------------
    def predicates(self, s: int, B: int, vals: dict, total, cmp) -> None:
        """setp from the subtractor (carry out, zero result, signs); selp by a predicate read from
        the predicate file (B+1 mixer) or forwarded from an earlier slot's setp; and/or/xor/not/mov
        on predicates (operands a and b from two more predicate ports, or forwarded)."""
        sp, a = self.sp, self.a
        ops = self.ops[s]
        C = self.carry_out
        pres = sp.add(f"pr.{s}", range(self.lanes), kind="scalar", doc=f"slot {s}: predicate result (setp), 0/1",
                      stage="execute")
        self.pred_results.append(pres)
        Pv = self.pv = sp.shared("Pv", range(self.lanes), kind="scalar", doc="selp: the predicate operand c, 0/1 (bank)",
                       stage="decode")
        src = self.src["c"]
        # predicate file read (B+1 mixer): rows = predicates, one value head per lane
        P1 = self.L[B + 1]
        xw, np_ = self.ctx_warp, self.cfg.preds
        q = {np_ * w + p: (0, and_form({src[("pred", p)]: 1.0, xw[w]: 1.0}, a))
             for w in range(self.cfg.max_warps) for p in range(np_)}
        P1.heads.append(predicate_file(sp, f"preds.{s}", np_, self.lanes, q, Pv, warps=self.cfg.max_warps))
        # predicate operands a and b (and.pred ...): two more ports, or forwarded (B+2)
        PP = {x: sp.shared(f"P{x}", range(self.lanes), kind="scalar", doc=f"predicate operand {x}, 0/1 (bank)",
                           stage="decode") for x in "ab"}
        for x in "ab":
            sx = self.src[x]
            qx = {np_ * w + p: (0, and_form({sx[("pred", p)]: 1.0, xw[w]: 1.0}, a))
                  for w in range(self.cfg.max_warps) for p in range(np_)}
            P1.heads.append(predicate_file(sp, f"preds.{s}.{x}", np_, self.lanes, qx, PP[x],
                                           warps=self.cfg.max_warps))
        L1, L2, L4 = self.L[B + 1], self.L[B + 2], self.L[B + 4]
        A, Bv = vals["a"], vals["b"]
        for lane in range(self.lanes):
            for x in "ab":
                for j in range(s):
                    L2.gated(a, {self.src[x][("pfwd", j)]: 1.0}, 1, {self.pred_results[j][lane]: 1.0},
                             {PP[x][lane]: 1.0})
            # predicate logic at B+4: the sum of the two operands decides and / or / xor
            pa, both = {PP["a"][lane]: 1.0}, {PP["a"][lane]: 1.0, PP["b"][lane]: 1.0}
            for op, x_, t_, w_ in (("and.pred", both, 1.5, 1.0), ("or.pred", both, 0.5, 1.0),
                                   ("xor.pred", both, 0.5, 1.0), ("xor.pred", both, 1.5, -1.0),
                                   ("not.pred", {PP["a"][lane]: -1.0}, -0.5, 1.0), ("mov.pred", pa, 0.5, 1.0)):
                L4.flag_step(a, x_, t_, {pres[lane]: w_}, ops[op])
            L1.flag_step(a, {A[(lane, 7)]: 1.0}, 7.5, {cmp[(lane, "sa")]: 1.0}, ops["signed"])
            L1.flag_step(a, {Bv[(lane, 7)]: 1.0}, 7.5, {cmp[(lane, "sb")]: 1.0}, ops["signed"])
            x = {cmp[(lane, "sa")]: 1.0, cmp[(lane, "sb")]: 1.0}
            L2.step(a, x, 0.5, {cmp[(lane, "X")]: 1.0})
            L2.step(a, x, 1.5, {cmp[(lane, "X")]: -1.0})
            for j in range(s):  # a predicate forwarded from an earlier slot's setp
                L2.gated(a, {src[("pfwd", j)]: 1.0}, 1, {self.pred_results[j][lane]: 1.0}, {Pv[lane]: 1.0})
            # setp at B+4 (SETP_RULES): C = [a >= b] unsigned, Z from the Σ of a − b's nibbles, u = (1 − C) + X
            c = C[lane]
            terms = {"zsum": {total[(lane, i)]: 1.0 for i in range(8)}, "c": {c: 1.0},
                     "u": lin({a: 1.0, c: -1.0}, {cmp[(lane, "X")]: 1.0})}
            for form, t, modes in SETP_RULES:
                x_ = lin(*({ch: k * v for ch, v in terms[name].items()} for name, k in form.items()))
                L4.flag_step(a, x_, t, {pres[lane]: 1.0}, {ops[f"setp.{m}"]: float(w) for m, w in modes.items()})
            L4.gated(a, {ops[f"setp.{m}"]: 1.0 for m in SETP_ONE}, 1, {a: 1.0}, {pres[lane]: 1.0})
            X = cmp[(lane, "X")]
            for i in range(8):  # selp d = c ? a : b
                out = {self.results[s][(lane, i)]: 1.0}
                av, bv = {A[(lane, i)]: 1.0}, {Bv[(lane, i)]: 1.0}
                L4.gated(a, {ops["selp"]: 1.0, Pv[lane]: 1.0}, 2, av, out)
                L4.gated(a, {ops["selp"]: 1.0, Pv[lane]: -1.0}, 1, bv, out)
                # min/max: unsigned a < b is not C; signed a < b is (1 - C) xor X. Each case is an
                # AND of the op flag with C and X (or their complements), so every gate is exact.
                for mn, mx, less in (("min.u", "max.u", [({c: -1.0}, 0)]),
                                     ("min.s", "max.s", [({c: 1.0, X: 1.0}, 2), ({c: -1.0, X: -1.0}, 0)])):
                    more = ([({c: 1.0}, 1)] if mn == "min.u" else [({c: 1.0, X: -1.0}, 1), ({c: -1.0, X: 1.0}, 1)])
                    for cond, n in less:   # a < b: min is a, max is b
                        L4.gated(a, lin({ops[mn]: 1.0}, cond), n + 1, av, out)
                        L4.gated(a, lin({ops[mx]: 1.0}, cond), n + 1, bv, out)
                    for cond, n in more:   # a >= b: min is b, max is a
                        L4.gated(a, lin({ops[mn]: 1.0}, cond), n + 1, bv, out)
                        L4.gated(a, lin({ops[mx]: 1.0}, cond), n + 1, av, out)
        for x in (*OPERANDS, "d"):  # the predicate forwarding above was the last reader of the sources
            L2.clear(a, self.src[x])
        L4.clear(a, PP["a"], PP["b"])
        L1.reads += [A.name, Bv.name, f"op.{s}", "src.a", "src.b", "src.c"]  # signs; the predicate ports' rows
        L1.writes += [cmp.name]
        L2.reads += [cmp.name, "src.a", "src.b", "src.c", "pr.*"]
        L2.writes += [cmp.name, Pv.name, PP["a"].name, PP["b"].name]
        L4.reads += [PP["a"].name, PP["b"].name, Pv.name, cmp.name, C.name, total.name, A.name, Bv.name, f"op.{s}"]
        L4.writes += [pres.name, f"r.{s}"]

    # --- memory -------------------------------------------------------------------------------
    def memory(self, s: int) -> None:
        """The flat word of a ld/st → per-lane one-hot digits, then the read of a load.

        Memory is one flat file of words. A shared (local) access adds the byte address of its
        CTA's (thread's) window, a launch constant (``sbase``/``lbase``), to the window address
        ``a + b`` from the adder. Only nibbles 0..2 of the sum matter (words < 128): nibble 0 can
        carry (``mb.c``, ``B + 3``), nibbles 1..2 are one integer ``Y`` (``B + 4``), so the word
        ``q + 4·Y`` (``q`` = the sum's nibble 0 div 4) is two one-hots and the memory query an AND
        of two digits — bounded sums, exact in bfloat16 too."""
        sp, a = self.sp, self.a
        B = self.sched.mux(s)
        total, ops = self.total, self.ops[s]
        lanes = range(self.lanes)
        vals = self.operand_groups(s)
        # B + 3 mixer: the window's base (the mixer is free there); its MLP: the carry out of nibble 0
        base = sp.shared("mb", [(l, i) for l in lanes for i in range(8)], kind="scalar",
                         doc="byte address of the shared/local window of a ld/st (bank)", stage="execute")
        carry = sp.shared("mb.c", lanes, kind="scalar", doc="window base + address: carry out of nibble 0 "
                          "(bank)", stage="execute")
        xw, warps = self.ctx_warp, self.cfg.max_warps
        q = {}
        for w in range(warps):
            q[const_row(f"sbase.{w}", warps)] = (0, and_form({ops["shared"]: 1.0, xw[w]: 1.0}, a))
            q[const_row(f"lbase.{w}", warps)] = (0, and_form({ops["local"]: 1.0, xw[w]: 1.0}, a))
        C = self.L[B + 3]
        C.heads.append(constants_file(sp, f"mbase.{s}", const_rows(warps), self.lanes, q, base))
        g = self.adder["g"]
        for lane in lanes:  # nibble 0 of a + b is a0 + b0 − 16·g0 (an add: no carry in)
            x = {vals["a"][(lane, 0)]: 1.0, vals["b"][(lane, 0)]: 1.0, g[(lane, 0)]: -16.0, base[(lane, 0)]: 1.0}
            C.flag_step(a, x, 15.5, {carry[lane]: 1.0}, {ops["shared"]: 1.0, ops["local"]: 1.0})
        C.reads += [f"op.{s}", "ctx.warp", vals["a"].name, vals["b"].name, "add.g", base.name]
        C.writes += ["mb", "mb.c"]
        # B + 4: the word as two one-hots, q (word mod 4) and Y (word div 4)
        W = self.L[B + 4]
        digits = sp.shared("word", [(lane, d, v) for lane in lanes for d, n in (("q", 4), ("Y", 32))
                                    for v in range(n)], kind="onehot",
                           doc="flat word of a ld/st = q + 4·Y (window base added; bank)", stage="execute")
        # Only a ld/st computes its word: another op's sum can be any value, far above these
        # thresholds, where a step is not exact in bfloat16 — and a one-hot of 2s would pass the
        # memory query's AND without the load flag.
        mem_op = {ops["load"]: 1.0, ops["store"]: 1.0}
        for lane in lanes:
            x_q = {total[(lane, 0)]: 1.0, base[(lane, 0)]: 1.0, carry[lane]: -16.0}
            x_y = {total[(lane, 1)]: 1.0, total[(lane, 2)]: 16.0, base[(lane, 1)]: 1.0, base[(lane, 2)]: 16.0,
                   carry[lane]: 1.0}
            for d, x, n, step in (("q", x_q, 4, 4), ("Y", x_y, 32, 1)):
                for v in range(n):  # one-hot v: [x >= v·step] − [x >= (v+1)·step]
                    if v > 0:
                        W.flag_step(a, x, v * step - 0.5, {digits[(lane, d, v)]: 1.0}, mem_op)
                    else:
                        W.neuron({a: GAIN / 2}, mem_op, {digits[(lane, d, 0)]: 2.0 / GAIN})
                    if v < n - 1:
                        W.flag_step(a, x, (v + 1) * step - 0.5, {digits[(lane, d, v)]: -1.0}, mem_op)
        # the slot's operand, adder, sum and window banks are free again: cleared in the layer after
        # their last reader, or later where that layer is lighter (B + 5; every next writer comes
        # after it, and a shuffle still reads operand a there)
        shift = self.shifter
        self.L[B + 2].clear(a, shift["b0"])
        for grp in (self.adder["g"], self.adder["p"], self.adder["c"], shift["t"], shift["q"]):
            self.L[B + 3].clear(a, grp)
        for grp in (*vals.values(), *self.sign_groups(s).values(), total, shift["ge"], shift["big"], *self.logic,
                    self.cmp, self.carry_out, self.pv, base, carry):
            self.L[B + 5].clear(a, grp)
        W.reads += ["sum", "mb", "mb.c"]
        W.writes.append("word")
        # B + 5: the read of a load (one memory key head per lane); the flat byte address of a store
        # for its M record (nibbles 0..2: 4·q, Y mod 16, Y div 16)
        R = self.L[B + 5]
        for lane in lanes:
            q = {}
            for w in range(self.cfg.mem_words):
                form = {digits[(lane, "q", w % 4)]: GAIN, digits[(lane, "Y", w // 4)]: GAIN, ops["load"]: GAIN}
                q[w] = (0, lin(form, (a, -2.5 * GAIN)))
            R.heads.append(memory_file(sp, f"mem.{s}.{lane}", self.cfg.mem_words, q, self.results[s], lane))
        saddr = sp.add(f"saddr.{s}", [(l, i) for l in lanes for i in range(3)], kind="scalar",
                       doc=f"slot {s}: flat byte address nibbles 0..2 of its store (for the M record)",
                       stage="execute")
        for lane in lanes:
            for d, n in (("q", 4), ("Y", 32)):
                for v in range(n):
                    out = ({saddr[(lane, 0)]: 4.0 * v} if d == "q" else
                           {saddr[(lane, 1)]: float(v % 16), saddr[(lane, 2)]: float(v // 16)})
                    if any(out.values()):
                        R.gated(a, {digits[(lane, d, v)]: 1.0, ops["store"]: 1.0}, 2, {a: 1.0}, out)
        R.clear(a, digits)
        R.reads += ["word", f"op.{s}"]
        R.writes += [f"r.{s}", f"saddr.{s}"]


def _imm_equals(space: Space, s: int, k: int) -> Lin:
    """A form that is 1 exactly when the slot's immediate is the small value k (0..255), else ≤ 0."""
    a = space["anchor"].start
    form: Lin = {}
    for field in ("imm0", "imm1", "imm2", "imm3"):
        for bit, ch in enumerate(_field_bits(space, s, field)):
            want = (k >> bit) & 1 if field == "imm0" else 0
            if want:
                form[ch] = form.get(ch, 0.0) + 1.0
            else:
                form[ch] = form.get(ch, 0.0) - 1.0
    ones = bin(k).count("1")
    form[a] = form.get(a, 0.0) + 1.0 - ones
    return form
