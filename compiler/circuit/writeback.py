"""Writeback: the tokens after an ``EXEC`` carry the step's results back (docs/circuit.md).

The EXEC pass computes every slot's result (``r.s``) but a layer's state is private, so
the results travel through the token stream: the EXEC pass *stages* them in a deep
layer, and each following pass reads the staged value it needs and writes the next
token. Layers (``E = Schedule.end``):

=========  ==================================================================================
layer      work
=========  ==================================================================================
``E``      mixer: which lanes of the warp hold a thread (constants ``present``) → ``ran``;
           which registers, predicates and stores the step sends, per lane (``written``,
           ``pwritten``, ``mwritten``: staged at ``EXEC`` from the guards' counts);
           MLP: the current record (``cur``, ``curm``), which slots write the current register
           (``eqcur``), which slot is the block's k-th store (``storek``)
``E + 1``  MLP: records still to send (``pending``, ``pendm``), the slot holding the value
           being sent (``cursel``)
``E + 2``  MLP: the next record, or the next ``EXEC`` / ``END`` (``emit``)
``E + 3``  MLP: the slot and lane of the next store (``nextsel``)
``E + 4``  mixer: staging — written at ``EXEC`` (one key head per lane, one value head per
           slot: result nibbles, store address nibbles), read with output gates open only
           for the value being sent and the next store's address;
           MLP: the nibbles and address digits as one-hots
``E + 5``  MLP: short or long value, from the nibble one-hots (a zero-attention layer; plain
           ``generate()`` needs one last)
=========  ==================================================================================

The LM head scores each token by its parts (``unembed``): a token whose parts are all on
scores ``SCORE``, every other token at most 0.

The terminator slot (jump target, exit) is fetched early (``TERM_LAYER``) into ``term.*``.
"""

from __future__ import annotations

from compiler.circuit.execute import Schedule, _equals
from compiler.circuit.layers import GAIN, VAMP, KeyHead, LayerSpec, Lin, ValueHead, lin
from compiler.circuit.protocol import TERM_SLOT, TERMINATORS, Vocab
from compiler.circuit.rom import build_rom_decode, build_rom_slot
from compiler.circuit.space import Group, Space
from compiler.circuit.tokens import const_row
from compiler.circuit.words import and_form, constants_file, value_group

TERM_LAYER = 2
DEPTH = 6
"""Layers of the writeback: ``Schedule.end`` .. ``Schedule.end + 5`` (the table above)."""
SCORE = 32.0
"""Logit of the right token (every other token scores at most 0)."""
STAGE_REF = 2.0 ** 14
"""Constant column of a staged word: dominates the head's RMS so the read-out scale is fixed."""
NIB_OFFSET = 32.0
"""Staged nibbles are stored as n + 32 (silu is the identity above 17)."""


class WritebackBuilder:
    def __init__(self, space: Space, layers: list[LayerSpec], cfg, sched: Schedule):
        self.sp, self.L, self.cfg, self.sched = space, layers, cfg, sched
        self.a = space["anchor"].start
        self.lanes, self.slots = cfg.lanes, sched.slots
        self.items = [(l, r) for l in range(cfg.lanes) for r in range(1, cfg.regs)]
        self.pitems = [(l, p) for l in range(cfg.lanes) for p in range(cfg.preds)]
        self.mitems = [(k, l) for k in range(cfg.block.max_stores) for l in range(cfg.lanes)]

    def build(self) -> None:
        self.terminator()
        self.bookkeeping()
        self.staging()
        self.emit()

    # --- the block's terminator ---------------------------------------------------------------
    def terminator(self) -> None:
        sp, a = self.sp, self.a
        L = self.L[TERM_LAYER]
        assert TERM_LAYER not in {self.sched.fetch(s) for s in range(self.slots)}, "rom.raw is busy there"
        # the raw read shares the instruction slots' bank (no slot is fetched in this layer, and
        # the decode clears it); the clean bits live until the writeback: their own group
        build_rom_slot(L, sp, TERM_SLOT, self.cfg.rom_blocks, raw_name="rom.raw")
        build_rom_decode(L, sp, TERM_SLOT, raw_name="rom.raw")
        D = self.L[TERM_LAYER + 1]
        term = sp.add("term", ["exit"] + [("jump", t) for t in range(self.cfg.rom_blocks)], kind="scalar",
                      doc="the block's terminator: exit, or jump to block t (0/1)", stage="decode")
        D.gated(a, _equals(sp, TERM_SLOT, "op", TERMINATORS.index("exit")), 8, {a: 1.0}, {term["exit"]: 1.0})
        for t in range(self.cfg.rom_blocks):
            form = lin(_equals(sp, TERM_SLOT, "op", TERMINATORS.index("jump")), _equals(sp, TERM_SLOT, "a", t))
            D.gated(a, form, 16, {a: 1.0}, {term[("jump", t)]: 1.0})
        D.reads.append(f"rom.bits.{TERM_SLOT}")
        D.writes.append("term")

    # --- E .. E+3: where are we in the step's records ------------------------------------------
    def bookkeeping(self) -> None:
        sp, a = self.sp, self.a
        E = self.sched.end
        slots, lanes = self.slots, self.lanes
        stores = self.cfg.block.max_stores
        M0 = self.L[E]
        ran = value_group(sp, "ran", "lanes of the current warp that hold a thread (nibble 0: 1/0)",
                          "writeback", lanes)
        xw = sp["ctx.warp"]
        warps = self.cfg.max_warps
        rows = {r: r for r in range(11 + 3 * warps)}
        q = {const_row(f"present.{w}.0"): (0, and_form({xw[w]: 1.0}, a)) for w in range(warps)}
        M0.heads.append(constants_file(sp, "present", rows, lanes, q, ran))
        # which warps exist: one row, warp w in value head w (read with a fixed query)
        wp = value_group(sp, "wexists", "warp w exists in this launch (nibble 0: 1/0)", "writeback", warps)
        M0.heads.append(constants_file(sp, "warps", rows, warps, {const_row("warp.0"): (0, {a: GAIN / 2})}, wp))
        M0.heads.append(self._pc_file())
        kind, lane, hi, lo = sp["tok.kind"], sp["latch.lane"], sp["latch.hi"], sp["latch.lo"]
        lkind, lslot = sp["latch.kind"], sp["latch.slot"]
        cur = sp.add("cur", self.items, kind="scalar", doc="the register record being sent (lane, register), "
                     "from the latch (0/1)", stage="writeback")
        curm = sp.add("curm", self.mitems, kind="scalar", doc="the memory record being sent (store k, lane), "
                      "from the latch (0/1)", stage="writeback")
        eqcur = sp.add("eqcur", range(slots), kind="scalar",
                       doc="slot s writes the current record's register (0/1)", stage="writeback")
        written = sp.add("written", self.items, kind="scalar",
                         doc="the step sends a record for register r of lane l (0/1; staged at EXEC)",
                         stage="writeback")
        pwritten = sp.add("pwritten", self.pitems, kind="scalar",
                          doc="the step sends a record for predicate p of lane l (0/1; staged at EXEC)",
                          stage="writeback")
        mwritten = sp.add("mwritten", self.mitems, kind="scalar",
                          doc="lane l ran the block's k-th store: the step sends its M record (0/1; staged "
                          "at EXEC)", stage="writeback")
        M0.heads.append(self._written_mask([("wrote", written), ("pwrote", pwritten), ("mwrote", mwritten)]))
        sk = sp.add("storek", [(k, s) for k in range(stores) for s in range(slots)], kind="scalar",
                    doc="slot s is the block's k-th store (0/1)", stage="writeback")
        curp = sp.add("curp", self.pitems, kind="scalar", doc="the predicate record being sent (lane, predicate), "
                      "from the current token (0/1)", stage="writeback")
        alane, alo = sp["addr.lane"], sp["addr.lo"]
        for l, p in self.pitems:
            M0.gated(a, {kind["P"]: 1.0, alane[l]: 1.0, alo[p]: 1.0}, 3, {a: 1.0}, {curp[(l, p)]: 1.0})
        rp = sp.add("rthenp", range(1), kind="scalar", doc="the token is a P record and the latch still holds "
                    "the last register record (0/1)", stage="writeback")
        M0.gated(a, {lkind["R"]: 1.0, kind["P"]: 1.0}, 2, {a: 1.0}, {rp[0]: 1.0})
        for l, r in self.items:
            M0.gated(a, {lkind["R"]: 1.0, lane[l]: 1.0, hi[r // 16]: 1.0, lo[r % 16]: 1.0}, 4, {a: 1.0},
                     {cur[(l, r)]: 1.0})
        for k, l in self.mitems:
            M0.gated(a, {lkind["M"]: 1.0, lslot[k]: 1.0, lane[l]: 1.0}, 3, {a: 1.0}, {curm[(k, l)]: 1.0})
        for s in range(slots):
            dst = sp[f"dst.{s}"]
            for r in range(1, self.cfg.regs):
                M0.gated(a, {dst[r]: 1.0, lkind["R"]: 1.0, hi[r // 16]: 1.0, lo[r % 16]: 1.0}, 4, {a: 1.0},
                         {eqcur[s]: 1.0})
            st = sp[f"op.{s}"]["st.global"]
            before = {sp[f"op.{t}"]["st.global"]: 1.0 for t in range(s)}
            M0.gated(a, lin({st: 1.0}, {c: -w for c, w in before.items()}), 1, {a: 1.0}, {sk[(0, s)]: 1.0})
            if stores > 1:  # the second store: a store with exactly one store before it (2·st + before
                # is 3 only then: a non-store after two stores gives 2, a first store 2)
                M0.gated(a, lin({st: 2.0}, before), 3, {a: 1.0}, {sk[(1, s)]: 1.0})
        M0.reads += ["latch.*", "dst.*", "op.*", "ctx.warp"]
        M0.writes += ["ran", "cur", "curm", "eqcur", "written", "pwritten", "mwritten", "storek", "curp"]

        M1 = self.L[E + 1]
        pending = sp.add("pending", self.items, kind="scalar",
                         doc="register records of this step not sent yet (0/1)", stage="writeback")
        pendm = sp.add("pendm", self.mitems, kind="scalar",
                       doc="memory records of this step not sent yet (0/1)", stage="writeback")
        cursel = sp.add("cursel", range(slots), kind="scalar",
                        doc="slot s holds the value being sent (register: last writer; memory: the store)",
                        stage="writeback")
        for n, (l, r) in enumerate(self.items):
            # after the current record in (lane, register) order, or everything right after EXEC.
            # At EXEC the latch may still hold the last record of the previous step, so "after" is
            # 0, 1 or 2: weights 3 on the conditions that must hold (3 + 3 + after >= 6.5 iff after >= 1)
            after = lin({cur[c]: 1.0 for c in self.items[:n]}, {kind["EXEC"]: 1.0})
            M1.step(a, lin({ran[(l, 0)]: 3.0, written[(l, r)]: 3.0}, after), 6.5, {pending[(l, r)]: 1.0})
        for n, (k, l) in enumerate(self.mitems):
            # after EXEC, a register record or a predicate record (several may hold: weights 2 on the
            # conditions that must all hold, so any positive "after" completes the sum)
            after = lin({curm[c]: 1.0 for c in self.mitems[:n]}, {kind["EXEC"]: 1.0, lkind["R"]: 1.0, kind["P"]: 1.0})
            M1.step(a, lin({ran[(l, 0)]: 2.0, mwritten[(k, l)]: 2.0}, after), 4.5, {pendm[(k, l)]: 1.0})
        pendp = sp.add("pendp", self.pitems, kind="scalar",
                       doc="predicate records of this step not sent yet (0/1)", stage="writeback")
        lastp = sp.add("lastp", [(p, s) for p in range(self.cfg.preds) for s in range(slots)], kind="scalar",
                       doc="slot s is the last to write predicate p (0/1)", stage="writeback")
        for n, (l, p) in enumerate(self.pitems):
            # after EXEC, after a register record (the latch says R, the token is not a P), or after
            # an earlier predicate record
            after = lin({curp[c]: 1.0 for c in self.pitems[:n]}, {kind["EXEC"]: 1.0, lkind["R"]: 1.0,
                                                                   sp["rthenp"][0]: -1.0})
            M1.step(a, lin({ran[(l, 0)]: 3.0, pwritten[(l, p)]: 3.0}, after), 6.5, {pendp[(l, p)]: 1.0})  # after: 0..2
        for p in range(self.cfg.preds):
            for s in range(slots):
                later = {sp[f"pdst.{t}"][p]: -1.0 for t in range(s + 1, slots)}
                M1.gated(a, lin({sp[f"pdst.{s}"][p]: 1.0}, later), 1, {a: 1.0}, {lastp[(p, s)]: 1.0})
        for s in range(slots):
            later = {eqcur[t]: -1.0 for t in range(s + 1, slots)}
            M1.gated(a, lin({eqcur[s]: 1.0}, later), 1, {a: 1.0}, {cursel[s]: 1.0})
            for k in range(stores):
                M1.gated(a, {lkind["M"]: 1.0, lslot[k]: 1.0, sk[(k, s)]: 1.0}, 3, {a: 1.0}, {cursel[s]: 1.0})
        M1.reads += ["ran", "written", "pwritten", "mwritten", "cur", "curm", "eqcur", "storek", "latch.*", "tok.kind"]
        M1.writes += ["pending", "pendm", "cursel", "pendp", "lastp"]

        M2 = self.L[E + 2]
        term = sp["term"]
        done = self._done()
        emit = sp.add("emit", [("R", i) for i in self.items] + [("P", i) for i in self.pitems]
                      + [("M", i) for i in self.mitems]
                      + [("NEXT", w) for w in range(self.cfg.max_warps)] + ["END", "S"], kind="scalar",
                      doc="parts of the next token (0/1)", stage="writeback")
        any_r = {pending[i]: -1.0 for i in self.items}
        any_p = {pendp[i]: -1.0 for i in self.pitems}
        total = lin(any_r, any_p, {pendm[i]: -1.0 for i in self.mitems})
        for n, i in enumerate(self.pitems):
            M2.gated(a, lin(done, {pendp[i]: 1.0}, any_r, {pendp[j]: -1.0 for j in self.pitems[:n]}), 2,
                     {a: 1.0}, {emit[("P", i)]: 1.0})
        for n, i in enumerate(self.items):  # the first pending record is next: registers, then memory
            M2.gated(a, lin(done, {pending[i]: 1.0}, {pending[j]: -1.0 for j in self.items[:n]}), 2, {a: 1.0},
                     {emit[("R", i)]: 1.0})
        for n, i in enumerate(self.mitems):
            M2.gated(a, lin(done, {pendm[i]: 1.0}, any_r, any_p, {pendm[j]: -1.0 for j in self.mitems[:n]}), 2,
                     {a: 1.0}, {emit[("M", i)]: 1.0})
        # the next EXEC: round robin — the first warp after the current one (cyclically) that exists
        # and has not exited; END when none is left
        warps = self.cfg.max_warps
        xw, wp, pc = sp["ctx.warp"], sp["wexists"], sp["pc"]
        running = {w: {wp[(w, 0)]: 1.0, pc[(w, "exit")]: -1.0} for w in range(warps)}
        for w in range(warps):
            for d in range(1, warps + 1):
                nxt = (w + d) % warps
                between = lin(*[{c: -v for c, v in running[(w + e) % warps].items()} for e in range(1, d)])
                M2.gated(a, lin(done, total, {xw[w]: 1.0}, running[nxt], between), 3, {a: 1.0},
                         {emit[("NEXT", nxt)]: 1.0})
        M2.gated(a, lin(done, total, *[{c: -v for c, v in running[w].items()} for w in range(warps)]), 1, {a: 1.0},
                 {emit["END"]: 1.0})
        M2.reads += ["pending", "pendm", "pendp", "pc", "wexists", "ctx.warp", "tok.kind"]
        M2.writes.append("emit")

        M3 = self.L[E + 3]
        nextsel = sp.add("nextsel", [(l, s) for l in range(lanes) for s in range(slots)], kind="scalar",
                         doc="the next record is a store by slot s in lane l (its address is needed now)",
                         stage="writeback")
        for k, l in self.mitems:
            for s in range(slots):
                M3.gated(a, {emit[("M", (k, l))]: 1.0, sk[(k, s)]: 1.0}, 2, {a: 1.0}, {nextsel[(l, s)]: 1.0})
        nextp = sp.add("nextp", [(l, s) for l in range(lanes) for s in range(slots)], kind="scalar",
                       doc="the next record is predicate of lane l last written by slot s (its value is needed now)",
                       stage="writeback")
        for l, p in self.pitems:
            for s in range(slots):
                M3.gated(a, {emit[("P", (l, p))]: 1.0, sp["lastp"][(p, s)]: 1.0}, 2, {a: 1.0}, {nextp[(l, s)]: 1.0})
        M3.reads += ["emit", "storek", "lastp"]
        M3.writes += ["nextsel", "nextp"]

    def _written_mask(self, masks: list[tuple[str, Group]]) -> KeyHead:
        """Which records the step sends, staged at ``EXEC`` and read at every token (``E`` mixer):
        a guarded instruction's lanes depend on a predicate that the step's own records may
        change. ``masks`` pairs each per-slot count (``guards``: ``wrote``, ``pwrote``, ``mwrote``)
        with the group that receives its 0/1 flags. ``E − 1`` turns the counts into 0/1 flags; the
        head keeps them as bit pairs (set, clear), so every row has the same number of non-zero
        entries."""
        sp, a = self.sp, self.a
        kind = sp["tok.kind"]
        F = self.L[self.sched.end - 1]
        pairs: list[tuple[int, int]] = []  # (flag channel, output channel)
        for count_name, out in masks:
            count = sp[count_name]
            flag = sp.add(f"{count_name}.flag", out.values, kind="scalar",
                          doc=f"{count_name} > 0 (0/1)", stage="writeback")
            for i in out.values:
                F.step(a, {count[i]: 1.0}, 0.5, {flag[i]: 1.0})
                pairs.append((flag[i], out[i]))
            F.reads.append(count_name)
            F.writes.append(flag.name)
        at_exec = and_form({kind["EXEC"]: 1.0}, a)
        head = KeyHead(name="wmask", q={0: (0, {a: GAIN / 2})}, k={0: (0, dict(at_exec))})
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

    def _pc_file(self) -> KeyHead:
        """Each warp's next block: ``EXEC.b.w`` writes warp w's value head (row 0) with the
        terminator of block b (jump t, or exit); every token reads all warps. A warp never run
        reads all-zero, i.e. block 0."""
        sp, a = self.sp, self.a
        kind, xw, term = sp["tok.kind"], sp["exec.warp"], sp["term"]
        warps, blocks = self.cfg.max_warps, self.cfg.rom_blocks
        pc = sp.add("pc", [(w, t) for w in range(warps) for t in list(range(blocks)) + ["exit"]], kind="scalar",
                    doc="the block warp w runs next, or exit (0/1; all 0: block 0, not started)",
                    stage="writeback")
        head = KeyHead(name="pcs", q={0: (0, {a: GAIN / 2})}, k={0: (0, and_form({kind["EXEC"]: 1.0}, a))})
        for w in range(warps):
            vh = ValueHead(name=f"pcs.{w}", nnz=1, beta=and_form({kind["EXEC"]: 1.0, xw[w]: 1.0}, a))
            for col, t in enumerate(list(range(blocks)) + ["exit"]):
                vh.v[col] = (0, and_form({term[t if t == "exit" else ("jump", t)]: 1.0}, a))
                vh.z[col] = {a: GAIN / 2}
                vh.out[col] = {pc[(w, t)]: 1.0}
            head.values.append(vh)
        return head

    # --- E+4 mixer: staging ---------------------------------------------------------------------
    def staging(self) -> None:
        sp, a = self.sp, self.a
        S = self.L[self.sched.end + 4]
        kind = sp["tok.kind"]
        lane, cursel, nextsel = sp["latch.lane"], sp["cursel"], sp["nextsel"]
        val = value_group(sp, "emit.v", "the value being sent (read from staging)", "writeback")
        adr = sp.add("emit.a", range(3), kind="scalar", doc="nibbles 0..2 of the next store's byte address",
                     stage="writeback")
        pv = sp.add("emit.pv", range(1), kind="scalar", doc="the next predicate record's value (0/1)",
                    stage="writeback")
        on = {a: GAIN / 2}
        at_exec = {kind["EXEC"]: GAIN, a: -GAIN / 2}
        scale = 8.0 * VAMP / STAGE_REF  # read-out of a unit entry: STAGE_REF dominates the row's RMS
        for l in range(self.lanes):
            head = KeyHead(name=f"stage.{l}", q={0: (0, dict(on))}, k={0: (0, dict(at_exec))})
            for s in range(self.slots):
                res, total = sp[f"r.{s}"], sp[f"saddr.{s}"]
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
                pn = {sp["nextp"][(l, s)]: GAIN, a: -GAIN / 2}           # the next predicate record's value
                vh.v[14], vh.z[14], vh.out[14] = (0, {sp[f"pr.{s}"][l]: 1.0, a: NIB_OFFSET}), dict(pn), {pv[0]: 1.0}
                vh.v[15], vh.z[15], vh.out[15] = (0, {a: NIB_OFFSET}), dict(pn), {pv[0]: -1.0}
                head.values.append(vh)
            S.heads.append(head)
        S.reads += ["r.*", "saddr.*", "pr.*", "latch.lane", "cursel", "nextsel", "nextp"]
        S.writes += ["emit.v", "emit.a", "emit.pv"]

    # --- E+4 MLP: the value and address digits of the next token ------------------------------
    def emit(self) -> None:
        sp, a = self.sp, self.a
        L = self.L[self.sched.end + 4]
        kind, val, adr, emit = sp["tok.kind"], sp["emit.v"], sp["emit.a"], sp["emit"]
        nib = sp.add("emit.nib", [(i, d) for i in range(8) for d in range(16)], kind="onehot",
                     doc="nibble i of the value being sent is d", stage="writeback")
        for i in range(8):
            self._onehot(L, {val[(0, i)]: 1.0}, [(nib[(i, d)], d) for d in range(16)], 1)
        digits = sp.add("emit.w", [("q", v) for v in range(4)] + [("n1", v) for v in range(16)]
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
        record = {kind["R"]: 1.0, kind["M"]: 1.0}  # exclusive flags
        for fill, n1 in ((0, range(8)), (15, range(8, 16))):
            x = lin({nib[(i, fill)]: 1.0 for i in range(2, 8)}, {nib[(1, d)]: 1.0 for d in n1})
            X.flag_step(a, x, 6.5, {emit["S"]: 1.0}, record)
        X.reads += ["emit.nib", "tok.kind"]
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
        """1 when the current token ends a record (EXEC, S, B3, P): the next token starts a new one."""
        sp = self.sp
        return {sp["tok.kind"]["EXEC"]: 1.0, sp["tok.kind"]["S"]: 1.0, sp["tok.kind"]["P"]: 1.0,
                **{sp["b3"][(0, v)]: 1.0 for v in (0, 1)}}

    # --- LM head ------------------------------------------------------------------------------
    def unembed(self, vocab: Vocab) -> dict[int, Lin]:
        sp, a = self.sp, self.a
        emit, nib, kind, xw = sp["emit"], sp["emit.nib"], sp["tok.kind"], sp["ctx.warp"]
        rows: dict[int, Lin] = {}

        def score(parts: list[Lin]) -> Lin:
            return lin(*[{i: SCORE * w for i, w in p.items()} for p in parts], (a, -SCORE * (len(parts) - 1)))

        def byte(k: int, x: int) -> list[Lin]:
            return [{nib[(2 * k, x & 15)]: 1.0}, {nib[(2 * k + 1, x >> 4)]: 1.0}]

        is_b = [{sp[f"b{k}"][(0, v)]: 1.0 for v in (0, 1)} for k in range(4)]
        digits = sp["emit.w"]
        first_byte = lin({kind["R"]: 1.0, kind["M"]: 1.0}, {emit["S"]: -1.0})
        for t, w in enumerate(vocab.words):
            kind_, _, rest = w.partition(".")
            if kind_ == "R":
                l, r = map(int, rest.split("."))
                rows[t] = score([{emit[("R", (l, r))]: 1.0}])
            elif kind_ == "EXEC":
                b, wp = map(int, rest.split("."))
                pc = sp["pc"]
                if b == 0:  # a warp never run is at block 0: its pc entries are all 0
                    at = lin({a: 1.0}, {pc[(wp, u)]: -1.0 for u in list(range(self.cfg.rom_blocks)) + ["exit"]})
                else:
                    at = {pc[(wp, b)]: 1.0}
                rows[t] = score([{emit[("NEXT", wp)]: 1.0}, at])
                if (b, wp) == (0, 0):  # GO starts the launch: warp 0 runs block 0 first
                    rows[t] = lin(rows[t], {kind["GO"]: 2 * SCORE})
            elif kind_ == "M" and rest.count(".") == 2:
                wd, l, k = map(int, rest.split("."))
                rows[t] = score([{emit[("M", (k, l))]: 1.0}, {digits[("q", wd % 4)]: 1.0},
                                 {digits[("n1", (wd // 4) % 16)]: 1.0}, {digits[("n2", wd // 64)]: 1.0}])
            elif kind_ == "P":
                l, p, v = map(int, rest.split("."))
                val = sp["emit.pv"][0]
                rows[t] = score([{emit[("P", (l, p))]: 1.0}, {val: 1.0} if v else {a: 1.0, val: -1.0}])
            elif w == "END":
                rows[t] = score([{emit["END"]: 1.0}])
            elif kind_ == "S":
                rows[t] = score([{emit["S"]: 1.0}, *byte(0, int(rest) & 0xFF)])
            elif kind_ in ("B0", "B1", "B2", "B3"):
                k, x = int(kind_[1]), int(rest)
                first = first_byte if k == 0 else is_b[k - 1]
                rows[t] = score([first, *byte(k, x)])
        return rows

