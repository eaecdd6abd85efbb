"""Writeback: the tokens after an ``EXEC`` carry the step's results back (docs/circuit.md).

The EXEC pass computes every slot's result (``r.s``) but a layer's state is private, so
the results travel through the token stream: the EXEC pass *stages* them in a deep
layer, and each following pass reads the staged value it needs and writes the next
token. Layers (``E = Schedule.end``):

=========  ==================================================================================
layer      work
=========  ==================================================================================
``E``      mixer: which lanes of the warp hold a thread (constants ``present``) → ``ran``;
           MLP: the current record (``cur``), which slot last wrote the current register
           (``eqcur``), which registers the block writes (``written``)
``E + 1``  MLP: items still to send (``pending``), the slot holding the current value (``lastw``)
``E + 2``  mixer: staging — written at ``EXEC`` (one key head per lane, one value head per
           slot), read with output gates open only for (current lane, last writer);
           MLP: the next token's parts (``emit.*``): next record, short/long value, bytes
=========  ==================================================================================

The LM head scores each token by its parts (``unembed``): a token whose parts are all on
scores ``SCORE``, every other token at most 0.

The terminator slot (jump target, exit) is fetched early (``TERM_LAYER``) into ``term.*``.
"""

from __future__ import annotations

from compiler.circuit.execute import OPS, Schedule, _equals
from compiler.circuit.layers import GAIN, VAMP, KeyHead, LayerSpec, Lin, ValueHead, lin
from compiler.circuit.protocol import TERM_SLOT, TERMINATORS, Vocab
from compiler.circuit.rom import build_rom_decode, build_rom_slot
from compiler.circuit.space import Space
from compiler.circuit.tokens import const_row
from compiler.circuit.words import and_form, constants_file, value_group

TERM_LAYER = 2
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

    def build(self) -> None:
        self.terminator()
        self.bookkeeping()
        self.staging()
        self.emit()

    # --- the block's terminator ---------------------------------------------------------------
    def terminator(self) -> None:
        sp, a = self.sp, self.a
        L = self.L[TERM_LAYER]
        build_rom_slot(L, sp, TERM_SLOT, self.cfg.rom_blocks)
        build_rom_decode(L, sp, TERM_SLOT)
        D = self.L[TERM_LAYER + 1]
        term = sp.add("term", ["exit"] + [("jump", t) for t in range(self.cfg.rom_blocks)], kind="scalar",
                      doc="the block's terminator: exit, or jump to block t (0/1)", stage="decode")
        D.gated(a, _equals(sp, TERM_SLOT, "op", TERMINATORS.index("exit")), 8, {a: 1.0}, {term["exit"]: 1.0})
        for t in range(self.cfg.rom_blocks):
            form = lin(_equals(sp, TERM_SLOT, "op", TERMINATORS.index("jump")), _equals(sp, TERM_SLOT, "a", t))
            D.gated(a, form, 16, {a: 1.0}, {term[("jump", t)]: 1.0})
        D.reads.append(f"rom.bits.{TERM_SLOT}")
        D.writes.append("term")

    # --- E, E+1: where are we in the step's records ---------------------------------------
    def bookkeeping(self) -> None:
        sp, a = self.sp, self.a
        E = self.sched.end
        M0 = self.L[E]
        ran = value_group(sp, "ran", "lanes of the current warp that hold a thread (nibble 0: 1/0)",
                          "writeback", self.lanes)
        xw = sp["ctx.warp"]
        rows = {r: r for r in range(10 + 3 * self.cfg.max_warps)}
        q = {const_row(f"present.{w}.0"): (0, and_form({xw[w]: 1.0}, a)) for w in range(self.cfg.max_warps)}
        M0.heads.append(constants_file(sp, "present", rows, self.lanes, q, ran))
        kind, lane, hi, lo = sp["tok.kind"], sp["latch.lane"], sp["latch.hi"], sp["latch.lo"]
        latch_kind = sp["latch.kind"]
        cur = sp.add("cur", self.items, kind="scalar", doc="the register record being sent (lane, register), "
                     "from the latch (0/1)", stage="writeback")
        eqcur = sp.add("eqcur", range(self.slots), kind="scalar",
                       doc="slot s writes the current record's register (0/1)", stage="writeback")
        written = sp.add("written", range(1, self.cfg.regs), kind="scalar",
                         doc="the block writes register r (0/1)", stage="writeback")
        for l, r in self.items:
            M0.gated(a, {latch_kind["R"]: 1.0, lane[l]: 1.0, hi[r // 16]: 1.0, lo[r % 16]: 1.0}, 4, {a: 1.0},
                     {cur[(l, r)]: 1.0})
        for s in range(self.slots):
            dst = sp[f"dst.{s}"]
            for r in range(1, self.cfg.regs):
                M0.gated(a, {dst[r]: 1.0, latch_kind["R"]: 1.0, hi[r // 16]: 1.0, lo[r % 16]: 1.0}, 4, {a: 1.0},
                         {eqcur[s]: 1.0})
        for r in range(1, self.cfg.regs):
            M0.step(a, {sp[f"dst.{s}"][r]: 1.0 for s in range(self.slots)}, 0.5, {written[r]: 1.0})
        M0.reads += ["latch.*", "dst.*", "ctx.warp"]
        M0.writes += ["ran", "cur", "eqcur", "written"]

        M1 = self.L[E + 1]
        pending = sp.add("pending", self.items, kind="scalar",
                         doc="register records of this step not sent yet (0/1)", stage="writeback")
        lastw = sp.add("lastw", range(self.slots), kind="scalar",
                       doc="slot s holds the current register's final value (0/1)", stage="writeback")
        for n, (l, r) in enumerate(self.items):
            # after the current record in (lane, register) order, or everything right after EXEC
            after = lin({cur[c]: 1.0 for c in self.items[:n]}, {kind["EXEC"]: 1.0})
            M1.step(a, lin({ran[(l, 0)]: 1.0, written[r]: 1.0}, after), 2.5, {pending[(l, r)]: 1.0})
        for s in range(self.slots):
            later = {eqcur[t]: -1.0 for t in range(s + 1, self.slots)}
            M1.gated(a, lin({eqcur[s]: 1.0}, later), 1, {a: 1.0}, {lastw[s]: 1.0})
        M1.reads += ["ran", "written", "cur", "eqcur", "tok.kind"]
        M1.writes += ["pending", "lastw"]

    # --- E+2 mixer: staging ---------------------------------------------------------------------
    def staging(self) -> None:
        sp, a = self.sp, self.a
        S = self.L[self.sched.end + 2]
        kind = sp["tok.kind"]
        lane, lastw = sp["latch.lane"], sp["lastw"]
        val = value_group(sp, "emit.v", "the value being sent (read from staging)", "writeback")
        on = {a: GAIN / 2}
        at_exec = {kind["EXEC"]: GAIN, a: -GAIN / 2}
        scale = 8.0 * VAMP / STAGE_REF  # read-out of a unit entry: STAGE_REF dominates the row's RMS
        for l in range(self.lanes):
            head = KeyHead(name=f"stage.{l}", q={0: (0, dict(on))}, k={0: (0, dict(at_exec))})
            for s in range(self.slots):
                res = sp[f"r.{s}"]
                vh = ValueHead(name=f"stage.{l}.{s}", beta=dict(at_exec), read_scale=scale)
                gate = {lane[l]: GAIN, lastw[s]: GAIN, a: -1.5 * GAIN}
                for i in range(8):  # column i: nibble i + 32; column 8: 32; column 9: STAGE_REF
                    vh.v[i] = (0, {res[(l, i)]: 1.0, a: NIB_OFFSET})
                    vh.z[i] = dict(gate)
                    vh.out[i] = {val[(0, i)]: 1.0}
                vh.v[8] = (0, {a: NIB_OFFSET})
                vh.z[8] = dict(gate)
                vh.out[8] = {val[(0, i)]: -1.0 for i in range(8)}
                vh.v[9] = (0, {a: STAGE_REF})
                vh.z[9] = dict(gate)
                head.values.append(vh)
            S.heads.append(head)
        S.reads += ["r.*", "latch.lane", "lastw"]
        S.writes.append("emit.v")

    # --- E+2 MLP: the next token's parts --------------------------------------------------------
    def emit(self) -> None:
        sp, a = self.sp, self.a
        L = self.L[self.sched.end + 2]
        kind = sp["tok.kind"]
        pending, term, val = sp["pending"], sp["term"], sp["emit.v"]
        done = self._done()
        emit = sp.add("emit", [("R", i) for i in self.items] + [("EXEC", t) for t in range(self.cfg.rom_blocks)]
                      + ["END", "S"], kind="scalar", doc="parts of the next token (0/1)", stage="writeback")
        total = {pending[i]: -1.0 for i in self.items}
        for n, i in enumerate(self.items):  # the first pending record is next
            form = lin(done, {pending[i]: 1.0}, {pending[j]: -1.0 for j in self.items[:n]})
            L.gated(a, form, 2, {a: 1.0}, {emit[("R", i)]: 1.0})
        for t in range(self.cfg.rom_blocks):
            L.gated(a, lin(done, {term[("jump", t)]: 1.0}, total), 2, {a: 1.0}, {emit[("EXEC", t)]: 1.0})
        L.gated(a, lin(done, {term["exit"]: 1.0}, total), 2, {a: 1.0}, {emit["END"]: 1.0})
        # short value: bits 7..31 all equal, i.e. 16·(n2 + … + n7) + n1 is ≤ 7 or ≥ 16·90 + 8
        hi = lin({val[(0, i)]: 16.0 for i in range(2, 8)}, {val[(0, 1)]: 1.0})
        L.flag_step(a, {k: -v for k, v in hi.items()}, -7.5, {emit["S"]: 1.0}, kind["R"])
        L.flag_step(a, hi, 16 * 90 + 7.5, {emit["S"]: 1.0}, kind["R"])
        nib = sp.add("emit.nib", [(i, d) for i in range(8) for d in range(16)], kind="onehot",
                     doc="nibble i of the value being sent is d", stage="writeback")
        for i in range(8):
            x = {val[(0, i)]: 1.0}
            for d in range(16):
                if d == 0:
                    L.neuron({a: GAIN / 2}, {a: 1.0}, {nib[(i, 0)]: 2.0 / GAIN})
                else:
                    L.step(a, x, d - 0.5, {nib[(i, d)]: 1.0})
                if d < 15:
                    L.step(a, x, d + 0.5, {nib[(i, d)]: -1.0})
        L.reads += ["pending", "term", "emit.v", "tok.kind"]
        L.writes += ["emit", "emit.nib"]

    def _done(self) -> Lin:
        """1 when the current token ends a record (EXEC, S, B3): the next token starts a new one."""
        sp = self.sp
        return {sp["tok.kind"]["EXEC"]: 1.0, sp["tok.kind"]["S"]: 1.0,
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
        for t, w in enumerate(vocab.words):
            kind_, _, rest = w.partition(".")
            if kind_ == "R":
                l, r = map(int, rest.split("."))
                rows[t] = score([{emit[("R", (l, r))]: 1.0}])
            elif kind_ == "EXEC":
                b, wp = map(int, rest.split("."))
                rows[t] = score([{emit[("EXEC", b)]: 1.0}, {xw[wp]: 1.0}])
                if (b, wp) == (0, 0):  # GO starts the launch: warp 0 runs block 0 first
                    rows[t] = lin(rows[t], {kind["GO"]: 2 * SCORE})
            elif w == "END":
                rows[t] = score([{emit["END"]: 1.0}])
            elif kind_ == "S":
                rows[t] = score([{emit["S"]: 1.0}, *byte(0, int(rest) & 0xFF)])
            elif kind_ in ("B0", "B1", "B2", "B3"):
                k, x = int(kind_[1]), int(rest)
                first = lin({kind["R"]: 1.0}, {emit["S"]: -1.0}) if k == 0 else is_b[k - 1]
                rows[t] = score([first, *byte(k, x)])
        return rows


__all__ = ["WritebackBuilder", "OPS"]
