"""Writeback: the tokens after an ``EXEC`` carry the step's results back (docs/circuit.md).

The EXEC pass computes every slot's result (``r.s``) but a layer's state is private, so
the results travel through the token stream: the EXEC pass *stages* them in a deep
layer, and each following pass reads the staged value it needs and writes the next
token. Layers (``E = Schedule.end``):

=========  ==================================================================================
layer      work
=========  ==================================================================================
``E − 3``  the terminator's guard, per lane, forwarded from a ``setp`` of the block
``E − 2``  the lanes whose guard fails (``term.fails``)
``E − 1``  each lane's next block (``newpc``), which pc-file entries this token writes (``pcw``)
``E``      mixer: the pc file (per lane: next block or exit; written at ``EXEC`` for the active
           lanes, in the prompt for present lanes);
           MLP: the current record (``cur``: a lane value of register r; ``curR``: the ``R.r``
           address; ``curm``), which slots write the current register (``eqcur``), which slot
           is the block's k-th store (``storek``)
``E + 1``  MLP: which registers, predicates and stores the step sends, per lane, as 0/1 flags
           (the last slot's ``wrote`` update, ``guards.py``: a register that keeps its value
           sends nothing); the slot holding the value being sent (``cursel``); which warps run
           (``run``) and each warp's lowest block (``ismin``); the register whose record the
           token is in (``lreg``)
``E + 2``  mixer: the flags (``written``, ``pwritten``, ``mwritten``), staged at ``EXEC``;
           MLP: records still to send (``pending``, ``pendm``; only active lanes, ``ctx.lanes``)
``E + 3``  MLP: the next token's kind (``emit``): an ``R.r`` address, the next lane value of
           the register being sent (``V``), a ``P`` / ``M`` record, the next ``EXEC`` / ``END``
``E + 4``  MLP: the slot and lane of the next store (``nextsel``); the lane whose value is
           sent (``sendlane``: the next lane value's, or the latched one inside a value)
``E + 5``  mixer: staging — written at ``EXEC`` (one key head per lane, one value head per
           slot: result nibbles, store address nibbles), read with output gates open only
           for the value being sent (``sendlane``, ``cursel``) and the next store's address;
           MLP: the nibbles and address digits as one-hots
``E + 6``  MLP: short or long value, from the nibble one-hots (a zero-attention layer; plain
           ``generate()`` needs one last)
=========  ==================================================================================

The LM head scores each token by its parts (``unembed``): a token whose parts are all on
scores ``SCORE``, every other token at most 0. ``EXEC.b.w.m`` is the next warp, its lowest
block and exactly the lanes at that block (docs/circuit.md, "Control flow").

The terminator slot (jump / branch target, fall-through, exit, guard) is fetched early
(``TERM_LAYER``) into ``term.*``.
"""

from __future__ import annotations

from compiler.circuit.barriers import BarrierBuilder
from compiler.circuit.execute import Schedule, SlotBuilder, _equals, _field_bits
from compiler.circuit.layers import GAIN, VAMP, KeyHead, LayerSpec, Lin, ValueHead, lin
from compiler.circuit.guards import bank_parity, guard_sources
from compiler.circuit.protocol import GUARD_PFWD, GUARD_PRED, TERM_SLOT, TERMINATORS, Vocab
from compiler.circuit.rom import build_rom_decode, build_rom_slot
from compiler.circuit.space import Group, Space
from compiler.circuit.tokens import const_row
from compiler.circuit.words import and_form, latched, predicate_file, value_group

TERM_LAYER = 2
DEPTH = 7
"""Layers of the writeback: ``Schedule.end`` .. ``Schedule.end + 6`` (the table above)."""
SCORE = 32.0
"""Logit of the right token (every other token scores at most 0)."""
STAGE_REF = 2.0 ** 14
"""Constant column of a staged word: dominates the head's RMS so the read-out scale is fixed."""
NIB_OFFSET = 32.0
"""Staged nibbles are stored as n + 32 (silu is the identity above 17)."""


class WritebackBuilder:
    """The writeback layers (the table above). Its inputs — groups the token embedding, the latch,
    the slots and the guards made — are bound once in ``__init__``; every group it makes is an
    attribute set where it is made (``self.cur``, ``self.pending``, ``self.parts`` for ``emit``, ...),
    so a later concept takes it as a handle, not by its name in the residual stream."""

    def __init__(self, space: Space, layers: list[LayerSpec], cfg, sched: Schedule, slots: SlotBuilder):
        self.sp, self.L, self.cfg, self.sched = space, layers, cfg, sched
        self.a = space["anchor"].start
        self.lanes, self.slots = cfg.lanes, sched.slots
        self.regs = range(1, cfg.regs)
        self.items = [(l, r) for r in self.regs for l in range(cfg.lanes)]
        """Register records (lane, register) in the order the step sends them: register-major
        (``R.r`` once, then each writing lane's value)."""
        self.pitems = [(l, p) for l in range(cfg.lanes) for p in range(cfg.preds)]
        self.mitems = [(k, l) for k in range(cfg.block.max_stores) for l in range(cfg.lanes)]
        # the writeback's inputs: groups the token embedding, the latch and the slots made (bound
        # once here; the groups the writeback makes are attributes set where they are made)
        self.kind = space["tok.kind"]
        self.latch = {f: space[f"latch.{f}"] for f in ("kind", "slot", "hi", "lo", "lane")}
        self.ctx_warp, self.ctx_lanes = slots.ctx_warp, slots.ctx_lanes
        self.exec_warp, self.exec_lanes = space["exec.warp"], space["exec.lanes"]
        self.addr_lane, self.addr_lo = space["addr.lane"], space["addr.lo"]
        self.value_bytes = [space[f"b{k}"] for k in range(4)]
        """B0..B3 tokens: bit pairs of each byte of a long value."""
        # per slot (execute.SlotBuilder): opcode flags, destination register and predicate, result,
        # predicate result, a store's byte-address nibbles
        self.op, self.dst, self.pdst = slots.ops, slots.dsts, slots.pdsts
        self.res, self.pres = slots.results, slots.pred_results
        self.saddr = [space[f"saddr.{s}"] for s in range(sched.slots)]
        g = slots.guards
        self.counts = {"wrote": g.wrote, "pwrote": g.pwrote, "mwrote": g.mwrote}
        """What the step wrote (guards.py): per register, predicate and store of each lane."""
        self.neq = g.neq
        self.skip = {p: space[f"skip.{p}"] for p in sorted({bank_parity(s) for s in range(sched.slots)})}
        """The guards' skip flags of each bank the slots use (the last slot's: ``_written_flags``)."""

    def build(self) -> None:
        self.terminator()
        self.barriers = BarrierBuilder(self.sp, self.L, self.cfg, self.sched.end, self.term_bar)
        self.barriers.build()
        self.bookkeeping()
        self.staging()
        self.emit()

    # --- the block's terminator: each active lane's next block ---------------------------------
    def terminator(self) -> None:
        """Fetch and decode the terminator (layers 2–3), read its guard predicate (layer 6, or
        forwarded from a ``setp`` of the block at ``E − 3``), and compute each lane's next block
        (``E − 1``): the *taken* target (``jump t``, ``bra t``, ``exit``) where the guard holds
        or there is none, the fall-through (field b) where it does not."""
        sp, a = self.sp, self.a
        blocks, lanes, slots = self.cfg.rom_blocks, self.lanes, self.slots
        L = self.L[TERM_LAYER]
        assert TERM_LAYER not in {self.sched.fetch(s) for s in range(self.slots)}, "rom.raw is busy there"
        # the raw read shares the instruction slots' bank (no slot is fetched in this layer, and
        # the decode clears it); the clean bits live until the writeback: their own group
        build_rom_slot(L, sp, TERM_SLOT, self.cfg.rom_blocks, raw_name="rom.raw")
        build_rom_decode(L, sp, TERM_SLOT, raw_name="rom.raw")
        D = self.L[TERM_LAYER + 1]
        targets = list(range(blocks)) + ["exit"]
        taken = self.term_taken = sp.add("term.T", targets, kind="scalar",
                                         doc="the terminator's target where its guard holds "
                                         "(jump / bra target, or exit; 0/1)", stage="decode")
        other = self.term_fall = sp.add("term.N", range(blocks), kind="scalar",
                                        doc="the terminator's fall-through where its "
                                        "guard fails (bra, guarded exit; 0/1)", stage="decode")
        op = {name: _equals(sp, TERM_SLOT, "op", TERMINATORS.index(name)) for name in ("jump", "branch", "exit", "bar")}
        D.gated(a, op["exit"], 8, {a: 1.0}, {taken["exit"]: 1.0})
        bar = self.term_bar = sp.add("term.bar", range(1), kind="scalar",
                                     doc="the terminator is a barrier (bar.sync: its lanes "
                                     "wait at its target; barriers.py)", stage="decode")
        D.gated(a, op["bar"], 8, {a: 1.0}, {bar[0]: 1.0})
        for t in range(blocks):
            for name in ("jump", "branch", "bar"):
                D.gated(a, lin(op[name], _equals(sp, TERM_SLOT, "a", t)), 16, {a: 1.0}, {taken[t]: 1.0})
            for name in ("branch", "exit"):
                D.gated(a, lin(op[name], _equals(sp, TERM_SLOT, "b", t)), 16, {a: 1.0}, {other[t]: 1.0})
        flags = self.term_guard = sp.add("term.guard", ("pos", "neg"), kind="scalar",
                                         doc="the terminator is guarded by a "
                                         "predicate (pos) or its negation (neg), 0/1", stage="decode")
        gsrc = self.term_gsrc = sp.add("term.gsrc", guard_sources(self.cfg, slots), kind="scalar",
                                       doc="where the terminator's guard comes from (0/1)", stage="decode")
        for kind, v in guard_sources(self.cfg, slots):
            src = GUARD_PRED + v if kind == "pred" else GUARD_PFWD + v
            for neg in (0, 1):
                D.gated(a, _equals(sp, TERM_SLOT, "guard", (src << 1) | neg), 8, {a: 1.0},
                        {gsrc[(kind, v)]: 1.0, flags["neg" if neg else "pos"]: 1.0})
        D.reads.append(f"rom.bits.{TERM_SLOT}")
        D.writes += ["term.T", "term.N", "term.bar", "term.guard", "term.gsrc"]
        # the guard predicate, per lane: the predicate file (layer 4) or a setp of the block (E - 3)
        G = self.term_pred = sp.add("term.G", range(lanes), kind="scalar",
                                    doc="the terminator's guard predicate, per lane (0/1)",
                                    stage="execute")
        P = self.L[self.sched.mux(0) + 2]  # beside slot 0's guard read: no layer of its own
        xw, np_, warps = self.ctx_warp, self.cfg.preds, self.cfg.max_warps
        q = {np_ * w + p: (0, and_form({gsrc[("pred", p)]: 1.0, xw[w]: 1.0}, a)) for w in range(warps)
             for p in range(np_)}
        P.heads.append(predicate_file(sp, "term.p", np_, lanes, q, G, warps=warps))
        P.reads += ["term.gsrc", "ctx.warp"]
        P.writes.append("term.G")
        E = self.sched.end
        F = self.L[E - 3]
        for j in range(slots):
            for l in range(lanes):
                F.gated(a, {gsrc[("pfwd", j)]: 1.0}, 1, {self.pres[j][l]: 1.0}, {G[l]: 1.0})
        F.reads += ["term.gsrc", "pr.*"]
        F.writes.append("term.G")
        # the lanes whose guard fails
        fails = self.term_fails = sp.add("term.fails", range(lanes), kind="scalar",
                                         doc="lane l takes the fall-through (0/1)",
                                         stage="execute")
        K = self.L[E - 2]
        for l in range(lanes):
            K.step(a, lin({flags["pos"]: 1.0, a: 1.0}, {G[l]: -1.0}), 1.5, {fails[l]: 1.0})
            K.step(a, {flags["neg"]: 1.0, G[l]: 1.0}, 1.5, {fails[l]: 1.0})
        K.reads += ["term.guard", "term.G"]
        K.writes.append("term.fails")
        # each lane's next block, and which (warp, lane) entries of the pc file this token writes:
        # the active lanes at EXEC; at the prompt, a present lane (its K record) starts at block 0
        newpc = self.newpc = sp.add("newpc", [(l, t) for l in range(lanes) for t in targets], kind="scalar",
                                    doc="lane l's next block (or exit) after this step; block 0 at a present "
                                    "lane's K record", stage="writeback")
        pcw = self.pcw = sp.add("pcw", [(w, l) for w in range(warps) for l in range(lanes)], kind="scalar",
                                doc="this token writes lane l of warp w in the pc file (0/1)", stage="writeback")
        N = self.L[E - 1]
        kind, lane = self.kind, self.latch["lane"]
        for l in range(lanes):
            for t in targets:
                N.gated(a, {taken[t]: 1.0, fails[l]: -1.0}, 1, {a: 1.0}, {newpc[(l, t)]: 1.0})
                if t != "exit":
                    N.gated(a, {other[t]: 1.0, fails[l]: 1.0}, 2, {a: 1.0}, {newpc[(l, t)]: 1.0})
            for w in range(warps):
                present = {kind["S"]: 1.0, lane[l]: 1.0, **latched(sp, "K", const_row(f"present.{w}.{l}", warps))}
                N.gated(a, present, len(present), {a: 1.0}, {newpc[(l, 0)]: 1.0, pcw[(w, l)]: 1.0})
                N.gated(a, {kind["EXEC"]: 1.0, self.exec_warp[w]: 1.0, self.exec_lanes[(l, 1)]: 1.0}, 3, {a: 1.0},
                        {pcw[(w, l)]: 1.0})
        # whether each lane's next block is serial (one lane at a time): the terminator's dst bits
        ser = self.newser = sp.add("newser", range(lanes), kind="scalar", doc="lane l's next block is serial (0/1)",
                                   stage="writeback")
        sbits = _field_bits(sp, TERM_SLOT, "dst")
        for l in range(lanes):
            N.gated(a, {sbits[1]: 1.0, fails[l]: -1.0}, 1, {a: 1.0}, {ser[l]: 1.0})   # SER_TARGET
            N.gated(a, {sbits[2]: 1.0, fails[l]: 1.0}, 2, {a: 1.0}, {ser[l]: 1.0})    # SER_FALL
        N.reads += ["term.T", "term.N", "term.fails", "tok.kind", "latch.*", "exec.*", "rom.bits.8"]
        N.writes += ["newpc", "pcw", "newser"]

    # --- E .. E+4: where are we in the step's records ------------------------------------------
    def bookkeeping(self) -> None:
        """``E`` .. ``E + 4``: the pc file, the records of the step and the choice of the next token (the
        table in the module docstring), one concept per method, called in the order their groups and
        neurons are allocated (the circuit digest depends on that order)."""
        self.L[self.sched.end].heads += self._pc_file()
        self.barriers.per_cta(self.pc_run)
        self._serial_turn()
        self._current_record()
        self._pending()
        self._warp_schedule()
        self._record_register()
        self._next_token()
        self._next_selection()

    def _current_record(self) -> None:
        """E (MLP): the record the current token belongs to (``cur``, ``curR``, ``curm``, ``curp``), which
        slots write its register (``eqcur``) and which slot is the block's k-th store (``storek``); the
        flags of what the step sends (``written``, ``pwritten``, ``mwritten``: ``E + 2`` mixer)."""
        sp = self.sp
        a = self.a
        E = self.sched.end
        slots = self.slots
        stores = self.cfg.block.max_stores
        M0 = self.L[self.sched.end]
        kind, lane, hi, lo = self.kind, self.latch["lane"], self.latch["hi"], self.latch["lo"]
        lkind, lslot = self.latch["kind"], self.latch["slot"]
        cur = self.cur = sp.add("cur", self.items, kind="scalar",
                                doc="the register record being sent (lane, register), "
                                "from the latch (0/1)", stage="writeback")
        curm = self.curm = sp.add("curm", self.mitems, kind="scalar",
                                  doc="the memory record being sent (store k, lane), "
                                  "from the latch (0/1)", stage="writeback")
        eqcur = self.eqcur = sp.add("eqcur", range(slots), kind="scalar",
                                    doc="slot s writes the current record's register (0/1)", stage="writeback")
        written = self.written = sp.add("written", self.items, kind="scalar",
                                        doc="the step sends a record for register r of lane l (0/1; staged at EXEC)",
                                        stage="writeback")
        pwritten = self.pwritten = sp.add("pwritten", self.pitems, kind="scalar",
                                          doc="the step sends a record for predicate p of lane l (0/1; staged at EXEC)",
                                          stage="writeback")
        mwritten = self.mwritten = sp.add("mwritten", self.mitems, kind="scalar",
                                          doc="lane l ran the block's k-th store: the step sends its M record "
                                          "(0/1; staged at EXEC)", stage="writeback")
        counts = self.counts
        self.L[E + 2].heads.append(self._written_mask([(counts["wrote"], written), (counts["pwrote"], pwritten),
                                                        (counts["mwrote"], mwritten)]))
        sk = self.storek = sp.add("storek", [(k, s) for k in range(stores) for s in range(slots)], kind="scalar",
                                  doc="slot s is the block's k-th store (0/1)", stage="writeback")
        curp = self.curp = sp.add("curp", self.pitems, kind="scalar",
                                  doc="the predicate record being sent (lane, predicate), "
                                  "from the current token (0/1)", stage="writeback")
        alane, alo = self.addr_lane, self.addr_lo
        for l, p in self.pitems:
            M0.gated(a, {kind["P"]: 1.0, alane[l]: 1.0, alo[p]: 1.0}, 3, {a: 1.0}, {curp[(l, p)]: 1.0})
        rp = self.rthenp = sp.add("rthenp", range(1), kind="scalar",
                                  doc="the token is a P record and the latch still holds "
                                  "the last register record (0/1)", stage="writeback")
        M0.gated(a, {lkind["R"]: 1.0, kind["P"]: 1.0}, 2, {a: 1.0}, {rp[0]: 1.0})
        for l, r in self.items:
            M0.gated(a, {lkind["R"]: 1.0, lane[l]: 1.0, hi[r // 16]: 1.0, lo[r % 16]: 1.0}, 4, {a: 1.0},
                     {cur[(l, r)]: 1.0})
        curR = self.curR = sp.add("curR", self.regs, kind="scalar", doc="the token is R.r, the address of register r's "
                                  "record (the latch holds R r and no lane; 0/1)", stage="writeback")
        for r in self.regs:
            M0.gated(a, {lkind["R"]: 1.0, lane["-"]: 1.0, hi[r // 16]: 1.0, lo[r % 16]: 1.0}, 4, {a: 1.0},
                     {curR[r]: 1.0})
        for k, l in self.mitems:
            M0.gated(a, {lkind["M"]: 1.0, lslot[k]: 1.0, lane[l]: 1.0}, 3, {a: 1.0}, {curm[(k, l)]: 1.0})
        for s in range(slots):
            dst = self.dst[s]
            for r in range(1, self.cfg.regs):
                M0.gated(a, {dst[r]: 1.0, lkind["R"]: 1.0, hi[r // 16]: 1.0, lo[r % 16]: 1.0}, 4, {a: 1.0},
                         {eqcur[s]: 1.0})
            st = self.op[s]["store"]
            before = {self.op[t]["store"]: 1.0 for t in range(s)}
            M0.gated(a, lin({st: 1.0}, {c: -w for c, w in before.items()}), 1, {a: 1.0}, {sk[(0, s)]: 1.0})
            if stores > 1:  # the second store: a store with exactly one store before it (2·st + before
                # is 3 only then: a non-store after two stores gives 2, a first store 2)
                M0.gated(a, lin({st: 2.0}, before), 3, {a: 1.0}, {sk[(1, s)]: 1.0})
        M0.reads += ["latch.*", "dst.*", "op.*", "ctx.warp", "addr.lane", "addr.lo", "newpc", "pcw", "newser"]
        M0.writes += ["pc.*", "cur", "curR", "curm", "eqcur", "storek", "curp", "rthenp"]

    def _pending(self) -> None:
        """E + 2 (MLP): the records of this step not sent yet (``pending``, ``pendm``, ``pendp``); E + 1:
        the slot that holds the value being sent (``cursel``) and the last writer of each predicate
        (``lastp``)."""
        sp = self.sp
        a = self.a
        E = self.sched.end
        slots = self.slots
        stores = self.cfg.block.max_stores
        kind = self.kind
        lkind = self.latch["kind"]
        lslot = self.latch["slot"]
        ran = {l: self.ctx_lanes[(l, 1)] for l in range(self.lanes)}  # the step's active lanes
        cur = self.cur
        curm = self.curm
        eqcur = self.eqcur
        written = self.written
        pwritten = self.pwritten
        mwritten = self.mwritten
        sk = self.storek
        curp = self.curp
        M1, MP = self.L[E + 1], self.L[E + 2]
        pending = self.pending = sp.add("pending", self.items, kind="scalar",
                                        doc="register records of this step not sent yet (0/1)", stage="writeback")
        pendm = self.pendm = sp.add("pendm", self.mitems, kind="scalar",
                                    doc="memory records of this step not sent yet (0/1)", stage="writeback")
        cursel = self.cursel = sp.add("cursel", range(slots), kind="scalar",
                                      doc="slot s holds the value being sent (register: last writer; memory: "
                                      "the store)", stage="writeback")
        no_bar = {kind["BAR"]: -10.0}  # a BAR token follows the step's last record: nothing is pending
        curR = self.curR
        for n, (l, r) in enumerate(self.items):
            # after the current record in (register, lane) order (R.r comes before every lane of r),
            # or everything right after EXEC. At EXEC the latch may still hold the last record of the
            # previous step, so "after" is 0, 1 or 2: weights 3 on the conditions that must hold
            # (3 + 3 + after >= 6.5 iff after >= 1)
            after = lin({cur[c]: 1.0 for c in self.items[:n]}, {curR[q]: 1.0 for q in self.regs if q <= r},
                        {kind["EXEC"]: 1.0})
            MP.step(a, lin({ran[l]: 3.0, written[(l, r)]: 3.0}, after, no_bar), 6.5, {pending[(l, r)]: 1.0})
        for n, (k, l) in enumerate(self.mitems):
            # after EXEC, a register record or a predicate record (several may hold: weights 2 on the
            # conditions that must all hold, so any positive "after" completes the sum)
            after = lin({curm[c]: 1.0 for c in self.mitems[:n]}, {kind["EXEC"]: 1.0, lkind["R"]: 1.0, kind["P"]: 1.0})
            MP.step(a, lin({ran[l]: 2.0, mwritten[(k, l)]: 2.0}, after, no_bar), 4.5, {pendm[(k, l)]: 1.0})
        pendp = self.pendp = sp.add("pendp", self.pitems, kind="scalar",
                                    doc="predicate records of this step not sent yet (0/1)", stage="writeback")
        lastp = self.lastp = sp.add("lastp", [(p, s) for p in range(self.cfg.preds) for s in range(slots)],
                                    kind="scalar",
                                    doc="slot s is the last to write predicate p (0/1)", stage="writeback")
        for n, (l, p) in enumerate(self.pitems):
            # after EXEC, after a register record (the latch says R, the token is not a P), or after
            # an earlier predicate record
            after = lin({curp[c]: 1.0 for c in self.pitems[:n]}, {kind["EXEC"]: 1.0, lkind["R"]: 1.0,
                                                                   self.rthenp[0]: -1.0})
            MP.step(a, lin({ran[l]: 3.0, pwritten[(l, p)]: 3.0}, after, no_bar), 6.5, {pendp[(l,
            p)]: 1.0})  # after: 0..2
        for p in range(self.cfg.preds):
            for s in range(slots):
                later = {self.pdst[t][p]: -1.0 for t in range(s + 1, slots)}
                M1.gated(a, lin({self.pdst[s][p]: 1.0}, later), 1, {a: 1.0}, {lastp[(p, s)]: 1.0})
        for s in range(slots):
            later = {eqcur[t]: -1.0 for t in range(s + 1, slots)}
            M1.gated(a, lin({eqcur[s]: 1.0}, later), 1, {a: 1.0}, {cursel[s]: 1.0})
            for k in range(stores):
                M1.gated(a, {lkind["M"]: 1.0, lslot[k]: 1.0, sk[(k, s)]: 1.0}, 3, {a: 1.0}, {cursel[s]: 1.0})
        M1.reads += ["eqcur", "storek", "latch.*", "pdst.*"]
        M1.writes += ["cursel", "lastp"]
        MP.reads += ["ctx.lanes", "written", "pwritten", "mwritten", "cur", "curR", "curm", "curp", "rthenp", "latch.*",
                     "tok.kind"]
        MP.writes += ["written", "pwritten", "mwritten", "pending", "pendm", "pendp"]

    def _warp_schedule(self) -> None:
        """E + 1: the warps with a running lane (``run``) and each warp's lowest block (``ismin``)."""
        sp = self.sp
        a = self.a
        lanes = self.lanes
        M1 = self.L[self.sched.end + 1]
        # the warps that have a running lane, and each warp's lowest block among its running lanes
        # (the block it runs next: docs/machine.md, "Scheduling and reconvergence")
        blocks, warps = self.cfg.rom_blocks, self.cfg.max_warps
        runl, low = self.pc_run, self.pc_low
        run = self.run = sp.add("run", range(warps), kind="scalar", doc="warp w has a running lane (0/1)",
                                stage="writeback")
        ismin = self.ismin = sp.add("ismin", [(w, b) for w in range(warps) for b in range(blocks)], kind="scalar",
                                    doc="block b is the lowest pc among warp w's running lanes (0/1)",
                                    stage="writeback")
        for w in range(warps):
            M1.step(a, {runl[(w, l)]: 1.0 for l in range(lanes)}, 0.5, {run[w]: 1.0})
            for b in range(blocks):  # some lane at b (at most 4) and none below it (each lane counts 5)
                M1.step(a, {low[(w, b)]: 1.0}, 0.5, {ismin[(w, b)]: 1.0})
        M1.reads.append("pc.*")
        M1.writes += ["run", "ismin"]

    def _record_register(self) -> None:
        """E + 1: the register whose record the current token belongs to (``lreg``)."""
        sp = self.sp
        a = self.a
        lanes = self.lanes
        kind = self.kind
        M1 = self.L[self.sched.end + 1]
        cur = self.cur
        curR = self.curR
        # the register of this step's record being sent (R.r or one of its lane values; not at EXEC,
        # where the latch may still hold the previous step's last record)
        lreg = self.lreg = sp.add("lreg", self.regs, kind="scalar",
                                  doc="the current token belongs to this step's record "
                                  "of register r (0/1)", stage="writeback")
        for r in self.regs:
            x = lin({curR[r]: 1.0}, {cur[(l, r)]: 1.0 for l in range(lanes)}, {kind["EXEC"]: -1.0})
            M1.step(a, x, 0.5, {lreg[r]: 1.0})
        M1.reads += ["cur", "curR", "tok.kind"]
        M1.writes.append("lreg")

    def _next_token(self) -> None:
        """E + 3 (MLP): the parts of the next token (``emit``), and the lanes of each warp at its lowest
        block (``atmin``)."""
        sp = self.sp
        a = self.a
        E = self.sched.end
        lanes = self.lanes
        kind = self.kind
        pending = self.pending
        pendm = self.pendm
        pendp = self.pendp
        M2 = self.L[E + 3]
        done = self._done()
        emit = self.parts = sp.add("emit", [("R", r) for r in self.regs] + [("V", l) for l in range(lanes)]
                                   + [("P", i) for i in self.pitems]
                                   + [("M", i) for i in self.mitems]
                                   + [("NEXT", w) for w in range(self.cfg.max_warps)] + ["END", "S"]
                                   + [("BAR", c, p) for c in range(self.cfg.max_warps) for p in (0, 1)], kind="scalar",
                                   doc="parts of the next token (0/1)", stage="writeback")
        any_r = {pending[i]: -1.0 for i in self.items}
        any_p = {pendp[i]: -1.0 for i in self.pitems}
        total = lin(any_r, any_p, {pendm[i]: -1.0 for i in self.mitems})
        for n, i in enumerate(self.pitems):
            M2.gated(a, lin(done, {pendp[i]: 1.0}, any_r, {pendp[j]: -1.0 for j in self.pitems[:n]}), 2,
                     {a: 1.0}, {emit[("P", i)]: 1.0})
        lreg = self.lreg
        for n, (l, r) in enumerate(self.items):  # the first pending record is next: registers, then memory
            first = lin({pending[(l, r)]: 1.0}, {pending[j]: -1.0 for j in self.items[:n]})
            # its register's address R.r, unless the current token is already in that register's record
            M2.gated(a, lin(done, first, {lreg[r]: -1.0}), 2, {a: 1.0}, {emit[("R", r)]: 1.0})
            # else its lane value (after R.r, or after the value of an earlier lane)
            M2.gated(a, lin(done, {kind["R"]: 1.0}, first, {lreg[r]: 1.0}), 3, {a: 1.0}, {emit[("V", l)]: 1.0})
        for n, i in enumerate(self.mitems):
            M2.gated(a, lin(done, {pendm[i]: 1.0}, any_r, any_p, {pendm[j]: -1.0 for j in self.mitems[:n]}), 2,
                     {a: 1.0}, {emit[("M", i)]: 1.0})
        # the next EXEC: round robin — the first warp after the current one (cyclically) with a
        # running lane; at GO the "current" warp is the last, so warp 0 comes first. END when no
        # warp has a running lane
        warps = self.cfg.max_warps
        xw, run, rel, ctaR, stay = self.ctx_warp, self.run, self.barriers.rel, self.barriers.ctaR, self.stay
        # a barrier release comes first (the lowest CTA to release), then the next EXEC or END
        releasing = {rel[c]: -1.0 for c in range(warps)}
        for c in range(warps):
            lower = {rel[d]: -1.0 for d in range(c)}
            M2.gated(a, lin(done, total, {rel[c]: 1.0}, lower, {ctaR[c]: -1.0}), 2, {a: 1.0},
                     {emit[("BAR", c, 1)]: 1.0})
            M2.gated(a, lin(done, total, {rel[c]: 1.0}, lower, {ctaR[c]: 1.0}), 3, {a: 1.0}, {emit[("BAR", c, 0)]: 1.0})
        for w in range(warps):
            cur = {xw[w]: 1.0, kind["GO"]: 1.0} if w == warps - 1 else {xw[w]: 1.0}
            for d in range(1, warps + 1):
                nxt = (w + d) % warps
                between = {run[(w + e) % warps]: -1.0 for e in range(1, d)}
                M2.gated(a, lin(done, total, cur, {run[nxt]: 1.0}, between, releasing, {stay[0]: -1.0}), 3,
                         {a: 1.0}, {emit[("NEXT", nxt)]: 1.0})
            # a serial block not done for the current warp: it goes again (its next lane)
            M2.gated(a, lin(done, total, {xw[w]: 1.0, stay[0]: 1.0}, releasing), 3, {a: 1.0}, {emit[("NEXT", w)]: 1.0})
        M2.gated(a, lin(done, total, {run[w]: -1.0 for w in range(warps)}, releasing), 1, {a: 1.0},
                 {emit["END"]: 1.0})
        # the lanes of each warp at its lowest block (the next EXEC's active mask)
        atmin = self.atmin = sp.add("atmin", [(w, l) for w in range(warps) for l in range(lanes)], kind="scalar",
                                    doc="lane l of warp w runs and is at the warp's lowest block (0/1)",
                                    stage="writeback")
        runl, at, ismin = self.pc_run, self.pc_at, self.ismin
        for w in range(warps):
            lowest = {ismin[(w, b)]: -float(b) for b in range(1, self.cfg.rom_blocks)}
            for l in range(lanes):
                x = lin({at[(w, l)]: 1.0}, lowest)  # 0 iff the lane is at the lowest block
                M2.flag_step(a, x, -0.5, {atmin[(w, l)]: 1.0}, runl[(w, l)])
                M2.flag_step(a, x, 0.5, {atmin[(w, l)]: -1.0}, runl[(w, l)])
        M2.reads += ["pending", "pendm", "pendp", "run", "ismin", "pc.*", "ctx.warp", "tok.kind", "rel", "ctaR",
                     "stay", "lreg", "b3"]
        M2.writes += ["emit", "atmin"]

    def _next_selection(self) -> None:
        """E + 4 (MLP): the slot and lane of the next store (``nextsel``), the slot holding the next
        predicate record (``nextp``), the next EXEC's lanes (``atmin1``), the lane being sent (``sendlane``)."""
        sp = self.sp
        a = self.a
        E = self.sched.end
        slots = self.slots
        lanes = self.lanes
        kind = self.kind
        sk = self.storek
        emit = self.parts
        M3 = self.L[E + 4]
        nextsel = self.nextsel = sp.add("nextsel", [(l, s) for l in range(lanes) for s in range(slots)],
                                        kind="scalar", doc="the next record is a store by slot s in lane l (its "
                                        "address is needed now)", stage="writeback")
        for k, l in self.mitems:
            for s in range(slots):
                M3.gated(a, {emit[("M", (k, l))]: 1.0, sk[(k, s)]: 1.0}, 2, {a: 1.0}, {nextsel[(l, s)]: 1.0})
        nextp = self.nextp = sp.add("nextp", [(l, s) for l in range(lanes) for s in range(slots)], kind="scalar",
                                    doc="the next record is predicate of lane l last written by slot s (its value "
                                    "is needed now)", stage="writeback")
        for l, p in self.pitems:
            for s in range(slots):
                M3.gated(a, {emit[("P", (l, p))]: 1.0, self.lastp[(p, s)]: 1.0}, 2, {a: 1.0}, {nextp[(l, s)]: 1.0})
        # the next EXEC's lanes: those at the warp's lowest block, or only the first of them when
        # that block is serial
        atmin, pser = self.atmin, self.pc_ser
        lanes_next = self.atmin1 = sp.add("atmin1", atmin.values, kind="scalar",
                                          doc="lane l of warp w runs in the next EXEC (atmin, only the "
                                          "lowest such lane at a serial block; 0/1)", stage="writeback")
        for w in range(self.cfg.max_warps):
            for l in range(lanes):
                M3.gated(a, {atmin[(w, l)]: 1.0}, 1, {a: 1.0}, {lanes_next[(w, l)]: 1.0})
                # off when the lane's block is serial and a lower lane is at it too (weights 4 > 3 lanes)
                x = lin({atmin[(w, l)]: 4.0, pser[(w, l)]: 4.0}, {atmin[(w, k)]: 1.0 for k in range(l)})
                M3.step(a, x, 8.5, {lanes_next[(w, l)]: -1.0})
        # the lane whose value the next token carries: the next lane value's (emit V), or the latched
        # lane while a record's value is under way (after M.w.l.k, and after B0, B1, B2)
        send = self.sendlane = sp.add("sendlane", range(lanes), kind="scalar",
                                      doc="the lane whose value is being sent (0/1)",
                                      stage="writeback")
        mid = {kind["M"]: 1.0, kind["B"]: 1.0, **{self.value_bytes[3][(0, v)]: -1.0 for v in (0, 1)}}
        for l in range(lanes):
            M3.gated(a, {emit[("V", l)]: 1.0}, 1, {a: 1.0}, {send[l]: 1.0})
            M3.step(a, lin({self.latch["lane"][l]: 1.0}, mid), 1.5, {send[l]: 1.0})
        M3.reads += ["emit", "storek", "lastp", "atmin", "pc.ser", "latch.lane", "tok.kind", "b3"]
        M3.writes += ["nextsel", "nextp", "atmin1", "sendlane"]

    def _serial_turn(self) -> None:
        """A serial block runs one lane at a time, and after it its warp keeps the turn while any
        of its running lanes is at a serial block (the other lanes at this one, or the same lane at
        the next part of its read-modify-write): ``atser`` = some running lane of the current warp
        is at a serial block (``E`` MLP), ``stay`` = that, and the current block is serial
        (``E + 1``)."""
        sp, a, E = self.sp, self.a, self.sched.end
        M0, M1 = self.L[E], self.L[E + 1]
        atser = self.atser = sp.add("atser", range(1), kind="scalar",
                                    doc="some running lane of the current warp is at a "
                                    "serial block (0/1)", stage="writeback")
        stay = self.stay = sp.add("stay", range(1), kind="scalar",
                                  doc="the current warp keeps the turn: the current block "
                                  "is serial and lanes of the warp are at serial blocks (0/1)", stage="writeback")
        xw, ser = self.ctx_warp, self.pc_ser
        for w in range(self.cfg.max_warps):  # a lane that does not run reads pc.ser = 0
            M0.flag_step(a, {ser[(w, l)]: 1.0 for l in range(self.lanes)}, 0.5, {atser[0]: 1.0}, xw[w])
        M0.reads += ["pc.ser", "ctx.warp"]
        M0.writes.append("atser")
        self_serial = _field_bits(sp, TERM_SLOT, "dst")[0]  # SER_SELF of the current block
        M1.step(a, {self_serial: 1.0, atser[0]: 1.0}, 1.5, {stay[0]: 1.0})
        M1.reads += ["atser", "rom.bits.8"]
        M1.writes.append("stay")

    def _written_mask(self, masks: list[tuple[Group, Group]]) -> KeyHead:
        """Which records the step sends, staged at ``EXEC`` and read at every token (``E + 2``
        mixer): a guarded instruction's lanes depend on a predicate that the step's own records
        may change. ``masks`` pairs each count (``guards``: ``wrote``, ``pwrote``, ``mwrote``) with
        the group that receives its 0/1 flags. ``E + 1`` turns the counts into 0/1 flags
        (``_written_flags``); the head keeps them as bit pairs (set, clear), so every row has the
        same number of non-zero entries."""
        a, kind = self.a, self.kind
        pairs: list[tuple[int, int]] = []  # (flag channel, output channel)
        flags = []
        for count, out in masks:
            flag = self._written_flags(count, out)
            flags.append(flag.name)
            pairs += [(flag[i], out[i]) for i in out.values]
        at_exec = and_form({kind["EXEC"]: 1.0}, a)
        head = KeyHead(name="wmask", q={0: (0, {a: GAIN / 2})}, k={0: (0, dict(at_exec))},
                       reads=["tok.kind", *flags], writes=[out.name for _, out in masks])
        per = 32  # items per value head: two columns each
        for h in range(0, len(pairs), per):
            part = pairs[h:h + per]
            vh = ValueHead(name=f"wmask.{h // per}", nnz=len(part), beta=dict(at_exec))
            for c, (flag, out) in enumerate(part):
                vh.v[2 * c] = (0, and_form({flag: 1.0}, a))
                vh.v[2 * c + 1] = (0, lin({flag: -GAIN}, {a: GAIN / 2}))
                vh.z[2 * c] = {a: GAIN / 2}
                vh.out[2 * c] = {out: 1.0}
            head.values.append(vh)
        return head

    def _written_flags(self, count: Group, out: Group) -> Group:
        """``E + 1``: the 0/1 flags ``count > 0``. For ``wrote`` this also finishes the block's last
        slot (``guards.GuardBuilder.unchanged``): where that slot ran and writes register r,
        its own ``neq`` decides, else ``wrote`` as the earlier slots left it. Three steps per
        (lane, register), each on at most 15.5 above its threshold (``neq``, ``wrote`` ≤ 16), the
        slot's conditions in the up projection: exact in bfloat16."""
        sp, a = self.sp, self.a
        F = self.L[self.sched.end + 1]
        flag = sp.add(f"{count.name}.flag", out.values, kind="scalar", doc=f"{count.name} > 0 (0/1)",
                      stage="writeback")
        F.reads.append(count.name)
        F.writes.append(flag.name)
        if count is not self.counts["wrote"]:
            for i in out.values:
                F.step(a, {count[i]: 1.0}, 0.5, {flag[i]: 1.0})
            return flag
        last = self.slots - 1
        dst, neq = self.dst[last], self.neq
        skip = self.skip[bank_parity(last)]
        for l, r in out.values:  # the conditions on dst / skip gate the up projection (flag_step)
            w, d, k, f = count[(l, r)], dst[r], skip[l], {flag[(l, r)]: 1.0}
            F.flag_step(a, {w: 1.0}, 0.5, f, {a: 1.0, d: -1.0})       # the last slot does not write r
            F.flag_step(a, {w: 1.0, k: 32.0}, 32.5, f, d)              # it writes r, skips lane l
            F.flag_step(a, {neq[l]: 1.0, k: -32.0}, 0.5, f, d)         # it writes r, ran: changed?
        F.clear(a, neq, skip)
        F.reads += [f"dst.{last}", "neq", skip.name]
        return flag

    def _pc_file(self) -> list[KeyHead]:
        """Each lane's next block (or exit): one value head per (warp, lane) in row 0, written
        where ``pcw`` says (the step's active lanes at ``EXEC``, a present lane's ``K`` record in
        the prompt) with ``newpc``; every token reads all of them. A lane never written (absent)
        reads all-zero: it never runs."""
        sp, a = self.sp, self.a
        warps, blocks, lanes = self.cfg.max_warps, self.cfg.rom_blocks, self.lanes
        targets = list(range(blocks)) + ["exit"]
        newpc, pcw, wait, newser = self.newpc, self.pcw, self.barriers.wait, self.newser
        # the read-out goes straight into the sums the scheduler needs (the out projection is
        # linear), not one channel per (warp, lane, block)
        runl = self.pc_run = sp.add("pc.run", [(w, l) for w in range(warps) for l in range(lanes)], kind="scalar",
                                    doc="lane l of warp w is at a block: not exited, holds a thread (0/1)",
                                    stage="writeback")
        at = self.pc_at = sp.add("pc.at", [(w, l) for w in range(warps) for l in range(lanes)], kind="scalar",
                                 doc=f"the block lane l of warp w runs next (0..{blocks - 1}; 0 when not running)",
                                 stage="writeback")
        low = self.pc_low = sp.add("pc.low", [(w, b) for w in range(warps) for b in range(blocks)], kind="scalar",
                                   doc="Σ_l [lane l of warp w at b] − 5·Σ_l [lane l below b]: ≥ 1 iff b is "
                                   "the warp's lowest block", stage="writeback")
        ser = self.pc_ser = sp.add("pc.ser", [(w, l) for w in range(warps) for l in range(lanes)], kind="scalar",
                                   doc="the block lane l of warp w runs next is serial (0/1)", stage="writeback")
        cnt = len(targets)  # columns: the targets (one-hot), then serial / not serial (one-hot)
        heads: list[KeyHead] = []
        per = 8  # value heads per key head
        entries = [(w, l) for w in range(warps) for l in range(lanes)]
        for h in range(0, len(entries), per):
            head = KeyHead(name=f"pcs.{h // per}", q={0: (0, {a: GAIN / 2})}, k={0: (0, {a: GAIN / 2})})
            for w, l in entries[h:h + per]:
                vh = ValueHead(name=f"pcs.{w}.{l}", nnz=2, beta=and_form({pcw[(w, l)]: 1.0}, a))
                vh.v[cnt] = (0, and_form({newser[l]: 1.0}, a))
                vh.v[cnt + 1] = (0, lin({newser[l]: -GAIN}, {a: GAIN / 2}))
                vh.out[cnt] = {ser[(w, l)]: 1.0}
                for col in (cnt, cnt + 1):
                    vh.z[col] = {a: GAIN / 2, wait[(w, l)]: -GAIN}
                for col, t in enumerate(targets):
                    vh.v[col] = (0, and_form({newpc[(l, t)]: 1.0}, a))
                    vh.z[col] = {a: GAIN / 2, wait[(w, l)]: -GAIN}  # a waiting lane reads as absent
                    vh.out[col] = {} if t == "exit" else {
                        runl[(w, l)]: 1.0, at[(w, l)]: float(t), low[(w, t)]: 1.0,
                        **{low[(w, b)]: -5.0 for b in range(t + 1, blocks)}}
                head.values.append(vh)
            heads.append(head)
        return heads

    # --- E+5 mixer: staging ---------------------------------------------------------------------
    def staging(self) -> None:
        sp, a = self.sp, self.a
        S = self.L[self.sched.end + 5]
        kind = self.kind
        lane, cursel, nextsel = self.sendlane, self.cursel, self.nextsel
        val = self.emit_v = value_group(sp, "emit.v", "the value being sent (read from staging)", "writeback")
        adr = self.emit_a = sp.add("emit.a", range(3), kind="scalar",
                                   doc="nibbles 0..2 of the next store's byte address",
                                   stage="writeback")
        pv = self.emit_pv = sp.add("emit.pv", range(1), kind="scalar", doc="the next predicate record's value (0/1)",
                                   stage="writeback")
        on = {a: GAIN / 2}
        at_exec = {kind["EXEC"]: GAIN, a: -GAIN / 2}
        scale = 8.0 * VAMP / STAGE_REF  # read-out of a unit entry: STAGE_REF dominates the row's RMS
        for l in range(self.lanes):
            head = KeyHead(name=f"stage.{l}", q={0: (0, dict(on))}, k={0: (0, dict(at_exec))})
            for s in range(self.slots):
                res, total = self.res[s], self.saddr[s]
                vh = ValueHead(name=f"stage.{l}.{s}", beta=dict(at_exec), read_scale=scale)
                now = {lane[l]: GAIN, cursel[s]: GAIN, a: -1.5 * GAIN}   # the value being sent
                nxt = {nextsel[(l, s)]: GAIN, a: -GAIN / 2}               # the next store's address
                # columns 0..7: value nibbles + 32; 8: 32; 9: STAGE_REF; 10..12: address nibbles + 32; 13: 32
                for i in range(8):
                    vh.v[i], vh.z[i], vh.out[i] = (0, {res[(l, i)]: 1.0, a: NIB_OFFSET}), dict(now), {val[(0, i)]: 1.0}
                vh.v[8], vh.z[8], vh.out[8] = (0, {a: NIB_OFFSET}), dict(now), {val[(0, i)]: -1.0 for i in range(8)}
                vh.v[9], vh.z[9] = (0, {a: STAGE_REF}), dict(now)
                for i in range(3):
                    vh.v[10 + i], vh.z[10 + i] = (0, {total[(l, i)]: 1.0, a: NIB_OFFSET}), dict(nxt)
                    vh.out[10 + i] = {adr[i]: 1.0}
                vh.v[13], vh.z[13], vh.out[13] = (0, {a: NIB_OFFSET}), dict(nxt), {adr[i]: -1.0 for i in range(3)}
                pn = {self.nextp[(l, s)]: GAIN, a: -GAIN / 2}           # the next predicate record's value
                vh.v[14], vh.z[14], vh.out[14] = (0, {self.pres[s][l]: 1.0, a: NIB_OFFSET}), dict(pn), {pv[0]: 1.0}
                vh.v[15], vh.z[15], vh.out[15] = (0, {a: NIB_OFFSET}), dict(pn), {pv[0]: -1.0}
                head.values.append(vh)
            S.heads.append(head)
        S.reads += ["r.*", "saddr.*", "pr.*", "sendlane", "cursel", "nextsel", "nextp"]
        S.writes += ["emit.v", "emit.a", "emit.pv"]

    # --- E+5 MLP: the value and address digits of the next token ------------------------------
    def emit(self) -> None:
        sp, a = self.sp, self.a
        L = self.L[self.sched.end + 5]
        kind, val, adr, emit = self.kind, self.emit_v, self.emit_a, self.parts
        nib = self.emit_nib = sp.add("emit.nib", [(i, d) for i in range(8) for d in range(16)], kind="onehot",
                                     doc="nibble i of the value being sent is d", stage="writeback")
        for i in range(8):
            self._onehot(L, {val[(0, i)]: 1.0}, [(nib[(i, d)], d) for d in range(16)], 1)
        digits = self.emit_w = sp.add("emit.w", [("q", v) for v in range(4)] + [("n1", v) for v in range(16)]
                                      + [("n2", v) for v in range(2)], kind="onehot",
                                      doc="word address of the next store: q + 4·n1 + 64·n2", stage="writeback")
        self._onehot(L, {adr[0]: 1.0}, [(digits[("q", v)], v) for v in range(4)], 4)
        self._onehot(L, {adr[1]: 1.0}, [(digits[("n1", v)], v) for v in range(16)], 1)
        self._onehot(L, {adr[2]: 1.0}, [(digits[("n2", v)], v) for v in range(2)], 1)
        L.reads += ["emit.v", "emit.a"]
        L.writes += ["emit.nib", "emit.w"]
        # short value: bits 7..31 all equal — nibbles 2..7 all 0 and nibble 1 ≤ 7, or all 15 and
        # nibble 1 ≥ 8. Seven one-hot conditions per case, so every threshold is below 7: a test
        # on 16·(n2 + … + n7) + n1 (thresholds near 1450) was not exact in bfloat16.
        X = self.L[self.sched.end + DEPTH - 1]
        record = {kind["M"]: 1.0, **{emit[("V", l)]: 1.0 for l in range(self.lanes)}}  # exclusive flags
        for fill, n1 in ((0, range(8)), (15, range(8, 16))):
            x = lin({nib[(i, fill)]: 1.0 for i in range(2, 8)}, {nib[(1, d)]: 1.0 for d in n1})
            X.flag_step(a, x, 6.5, {emit["S"]: 1.0}, record)
        X.reads += ["emit.nib", "tok.kind", "emit"]
        X.writes += ["emit"]

    def _onehot(self, L: LayerSpec, x: Lin, outs: list[tuple[int, int]], step: int) -> None:
        """One-hot of ``floor(x / step)`` over the listed values: [x ≥ v·step] − [x ≥ (v+1)·step]."""
        a = self.a
        for ch, v in outs:
            if v == 0:
                L.neuron({a: GAIN / 2}, {a: 1.0}, {ch: 2.0 / GAIN})
            else:
                L.step(a, x, v * step - 0.5, {ch: 1.0})
            if v < outs[-1][1]:
                L.step(a, x, (v + 1) * step - 0.5, {ch: -1.0})

    def _done(self) -> Lin:
        """1 when the current token ends a record (EXEC, S, B3, P) or the prompt (GO): the next token
        starts a new one."""
        kind = self.kind
        return {kind["EXEC"]: 1.0, kind["S"]: 1.0, kind["P"]: 1.0, kind["GO"]: 1.0, kind["BAR"]: 1.0,
                **{self.value_bytes[3][(0, v)]: 1.0 for v in (0, 1)}}

    # --- LM head ------------------------------------------------------------------------------
    def unembed(self, vocab: Vocab) -> dict[int, Lin]:
        a = self.a
        emit, nib, kind = self.parts, self.emit_nib, self.kind
        rows: dict[int, Lin] = {}

        def score(parts: list[Lin]) -> Lin:
            return lin(*[{i: SCORE * w for i, w in p.items()} for p in parts], (a, -SCORE * (len(parts) - 1)))

        def byte(k: int, x: int) -> list[Lin]:
            return [{nib[(2 * k, x & 15)]: 1.0}, {nib[(2 * k + 1, x >> 4)]: 1.0}]

        is_b = [{self.value_bytes[k][(0, v)]: 1.0 for v in (0, 1)} for k in range(4)]
        digits = self.emit_w
        for t, w in enumerate(vocab.words):
            kind_, _, rest = w.partition(".")
            # the first token of a value: a lane value (S.l.x, B0.l.x) where emit says so, a plain
            # one after an M.w.l.k address
            first = ({emit[("V", int(rest.split(".")[0]))]: 1.0} if rest.count(".") == 1 else {kind["M"]: 1.0}) \
                if kind_ in ("S", "B0") else {}
            if kind_ == "R":
                rows[t] = score([{emit[("R", int(rest))]: 1.0}])
            elif kind_ == "EXEC":  # the next warp, its lowest block, and exactly the lanes at that block
                b, wp, m = map(int, rest.split("."))
                atmin, ismin = self.atmin1, self.ismin
                lanes_at = [{atmin[(wp, l)]: 1.0} if (m >> l) & 1 else {a: 1.0, atmin[(wp, l)]: -1.0}
                            for l in range(self.lanes)]
                rows[t] = score([{emit[("NEXT", wp)]: 1.0}, {ismin[(wp, b)]: 1.0}, *lanes_at])
            elif kind_ == "M" and rest.count(".") == 2:
                wd, l, k = map(int, rest.split("."))
                rows[t] = score([{emit[("M", (k, l))]: 1.0}, {digits[("q", wd % 4)]: 1.0},
                                 {digits[("n1", (wd // 4) % 16)]: 1.0}, {digits[("n2", wd // 64)]: 1.0}])
            elif kind_ == "P":
                l, p, v = map(int, rest.split("."))
                val = self.emit_pv[0]
                rows[t] = score([{emit[("P", (l, p))]: 1.0}, {val: 1.0} if v else {a: 1.0, val: -1.0}])
            elif w == "END":
                rows[t] = score([{emit["END"]: 1.0}])
            elif kind_ == "BAR":
                c, p = map(int, rest.split("."))
                rows[t] = score([{emit[("BAR", c, p)]: 1.0}])
            elif kind_ == "S":
                rows[t] = score([first, {emit["S"]: 1.0}, *byte(0, int(rest.split(".")[-1]) & 0xFF)])
            elif kind_ == "B0":
                rows[t] = score([lin(first, {emit["S"]: -1.0}), *byte(0, int(rest.split(".")[-1]))])
            elif kind_ in ("B1", "B2", "B3"):
                k = int(kind_[1])
                rows[t] = score([is_b[k - 1], *byte(k, int(rest))])
        return rows

