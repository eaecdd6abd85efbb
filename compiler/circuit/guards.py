"""Guarded instructions (``@p op`` / ``@!p op``): lanes whose guard is false keep the
destination's old value (a register or a predicate), send no record for it, and store nothing.

The ROM word of a guarded instruction holds its guard (``guard`` field: the predicate file's
predicate p or the ``setp`` result of an earlier slot, and a negate bit) and the source of its
destination's old value (field ``d``: the register or predicate file, or an earlier slot's
result). Per slot ``s`` with mux layer ``B``:

==========  ======================================================================
layer       work
==========  ======================================================================
``B − 2``   decode: guard source, ``gpos`` / ``gneg`` (guarded, guard not negated / negated),
            source of the old value (``src.d``)
``B``       MLP: an old value forwarded from an earlier slot → ``Dv``
``B + 1``   mixer: an old value in the register file → ``Dv`` (one more register port)
``B + 2``   mixer: the guard predicate from the predicate file → ``Gv``, and a predicate
            destination's old value → ``Dp``; MLP: either one forwarded from an earlier ``setp``
``B + 3``   mixer: the destination register's value before the step → ``Ov`` (a register
            port keyed by ``dst.s``: what the model holds, not a value forwarded in the block)
``B + 4``   ``skip_l = gpos ∧ ¬Gv_l  +  gneg ∧ Gv_l`` (the lane does not run the instruction)
``B + 5``   which lanes send a predicate record (``pwrote[(l, p)] += pdst_p ∧ ¬skip_l``) and
            run the block's k-th store (``mwrote``); the predicate merge
            ``pr.s += skip_l · (Dp_l − pr.s_l)``
``B + 9``   merge: ``r.s += skip_l · (Dv_l − r.s_l)`` — after every producer of ``r.s``,
            the multiplier included (``B + 8``); ``neq_l`` = how many nibbles of ``r.s_l`` (before
            the merge) differ from ``Ov_l``, counted in both directions (0 iff unchanged)
``B + 12``  ``wrote[(l, r)] += (dst_r ∧ ¬skip_l) · (neq_l − wrote[(l, r)])``: the last slot
            that runs and writes r decides, so ``wrote`` is > 0 iff the register's final value
            differs from the one it held — only then does the step send its ``R`` record. The
            block's last slot does this in the writeback (``E + 1``,
            ``WritebackBuilder._written_flags``), which finds ``neq`` and ``skip`` still set
==========  ======================================================================

The merge is as deep as the multiplier, so a guarded result is ready two slots later (the
kernel compiler's ``BlockLimits.mul_latency`` rule covers guarded instructions too). The
writeback stages the ``wrote`` / ``pwrote`` / ``mwrote`` flags at ``EXEC`` (``WritebackBuilder``):
a guard forwarded from a ``setp`` depends on registers that the step's own ``R`` records rewrite.
A register rewritten with the value it held sends no record (docs/circuit.md, "Token protocol";
``protocol.step_tokens`` leaves it out the same way); ``neq`` compares nibble by nibble, each
step on at most 14.5 above its threshold (exact in bfloat16). A guarded predicate result is
ready one slot later (``B + 5``, before the next slot's ``B + 2``).
"""

from __future__ import annotations

from compiler.circuit.layers import Lin, lin
from compiler.circuit.protocol import GUARD_PFWD, GUARD_PRED, SRC_FWD, SRC_PFWD, SRC_PRED
from compiler.circuit.words import and_form, predicate_file, register_file, value_group

MERGE_DEPTH = 9
"""The merge runs in the MLP of layer ``B + MERGE_DEPTH`` (after the multiplier's last layer)."""
UNCHANGED_DEPTH = 12
"""A slot other than the block's last updates ``wrote`` in the MLP of layer ``B + UNCHANGED_DEPTH``
(the layers right after ``neq`` are the widest)."""


def guard_sources(cfg, slots: int) -> list[tuple[str, int]]:
    return [("pred", p) for p in range(cfg.preds)] + [("pfwd", j) for j in range(slots)]


def bank_parity(s: int) -> str:
    """Which of the two alternating banks slot s uses ("even" or "odd"): neighbouring slots
    overlap in the pipeline, so each keeps its banks apart from the next one's."""
    return "even" if s % 2 == 0 else "odd"


class GuardBuilder:
    """Adds guarded execution to the slots built by ``execute.SlotBuilder``."""

    def __init__(self, slots):
        self.b = slots
        self.sp, self.L, self.cfg, self.sched = slots.sp, slots.L, slots.cfg, slots.sched
        self.a = slots.a
        self.lanes = slots.lanes
        sp = self.sp
        self.wrote = sp.add("wrote", [(l, r) for l in range(self.lanes) for r in range(1, self.cfg.regs)],
                            kind="scalar", doc="> 0 iff the last slot of the block that wrote register r in "
                            "lane l (the lane ran it) left a value other than the one the register held",
                            stage="writeback")
        self.neq = sp.shared("neq", range(self.lanes), kind="scalar", doc="how many nibbles of the slot's "
                             "result differ from its destination's value before the step, per lane (bank)",
                             stage="writeback")
        self.pwrote = sp.add("pwrote", [(l, p) for l in range(self.lanes) for p in range(self.cfg.preds)],
                             kind="scalar", doc="how many slots of the block wrote predicate p in lane l",
                             stage="writeback")
        stores = self.cfg.block.max_stores
        assert stores <= 2, "the k-th store test below tells apart two stores at most"
        self.flags: list = []
        """Per slot: guarded by a predicate (pos) or its negation (neg), from decode."""
        self.mwrote = sp.add("mwrote", [(k, l) for k in range(stores) for l in range(self.lanes)],
                             kind="scalar", doc="lane l ran the block's k-th store (0/1)", stage="writeback")

    def banks(self, s: int) -> dict:
        par = bank_parity(s)
        sp, lanes = self.sp, self.lanes
        return {
            "D": sp.groups.get(f"Dv.{par}") or value_group(
                sp, f"Dv.{par}", f"old value of a guarded instruction's destination ({par} slots; bank)",
                "decode", lanes=lanes),
            "O": sp.groups.get(f"Ov.{par}") or value_group(
                sp, f"Ov.{par}", f"value before the step of the destination register ({par} slots; bank)",
                "decode", lanes=lanes),
            "skip": sp.shared(f"skip.{par}", range(lanes), kind="scalar", doc=f"lane l skips the guarded "
                              f"instruction of the {par} slot in execute (0/1; bank)", stage="execute"),
            "Dp": sp.shared("Dp", range(lanes), kind="scalar", doc="old value of a guarded instruction's "
                            "destination predicate, per lane (0/1; bank)", stage="decode"),
            "G": sp.shared("Gv", range(lanes), kind="scalar", doc="the guard predicate of the slot in "
                           "execute, per lane (0/1; bank)", stage="decode"),
            "gsrc": sp.shared("gsrc", guard_sources(self.cfg, self.sched.slots), kind="scalar",
                              doc="where the guard of the slot being decoded comes from (0/1; bank)",
                              stage="decode"),
        }

    # --- B − 2: decode --------------------------------------------------------------------------
    def decode(self, s: int, L, equals) -> dict:
        """Decode the guard field; ``equals(field, value)`` is the exact-match form (8 when equal)."""
        sp, a = self.sp, self.a
        bk = self.banks(s)
        flags = sp.add(f"guard.{s}", ("pos", "neg"), kind="scalar", doc=f"slot {s} is guarded by a predicate "
                       "(pos) or by its negation (neg), 0/1", stage="decode")
        for kind, v in guard_sources(self.cfg, self.sched.slots):
            if kind == "pfwd" and v >= s:
                continue
            src = GUARD_PRED + v if kind == "pred" else GUARD_PFWD + v
            for neg in (0, 1):
                L.gated(a, equals("guard", (src << 1) | neg), 8, {a: 1.0},
                        {bk["gsrc"][(kind, v)]: 1.0, flags["neg" if neg else "pos"]: 1.0})
        L.writes += ["gsrc", f"guard.{s}"]
        self.flags.append(flags)
        return flags

    def old_value_sources(self, s: int) -> list[tuple[tuple[str, int], int]]:
        """(src.d selector, ROM code) pairs for the destination's old value."""
        return ([(("reg", r), r) for r in range(1, self.cfg.regs)] + [(("fwd", j), SRC_FWD + j) for j in range(s)]
                + [(("pred", p), SRC_PRED + p) for p in range(self.cfg.preds)]
                + [(("pfwd", j), SRC_PFWD + j) for j in range(s)])

    def old_value_selectors(self) -> list[tuple[str, int]]:
        """Every selector of the ``src.d`` bank (all slots)."""
        slots = range(self.sched.slots)
        return ([("reg", r) for r in range(1, self.cfg.regs)] + [("fwd", j) for j in slots]
                + [("pred", p) for p in range(self.cfg.preds)] + [("pfwd", j) for j in slots])

    # --- B .. B + 5 --------------------------------------------------------------------------------
    def execute(self, s: int) -> None:
        sp, a, lanes = self.sp, self.a, self.lanes
        B = self.sched.mux(s)
        bk = self.banks(s)
        D, Dp, skip, G, gsrc = bk["D"], bk["Dp"], bk["skip"], bk["G"], bk["gsrc"]
        src = self.b.src["d"]
        flags = self.flags[s]
        xw = self.b.ctx_warp
        warps = self.cfg.max_warps
        # B: an old value forwarded from an earlier slot
        M = self.L[B]
        for j in range(s):
            for lane in range(lanes):
                for i in range(8):
                    M.gated(a, {src[("fwd", j)]: 1.0}, 1, {self.b.results[j][(lane, i)]: 1.0}, {D[(lane, i)]: 1.0})
        M.reads += ["src.d", *(f"r.{j}" for j in range(s))]
        M.writes.append(D.name)
        # B + 1: an old value in the register file
        P1 = self.L[B + 1]
        query = {16 * w + r: (0, and_form({src[("reg", r)]: 1.0, xw[w]: 1.0}, a))
                 for w in range(warps) for r in range(1, self.cfg.regs)}
        P1.heads.append(register_file(sp, f"regs.{s}.d", self.cfg.regs, lanes, query, D, warps=warps))
        P1.reads.append("src.d")  # the register file's query
        P1.writes.append(D.name)
        # B + 2: the guard predicate (predicate file, or an earlier slot's setp)
        P2 = self.L[B + 2]
        np_ = self.cfg.preds
        q = {np_ * w + p: (0, and_form({gsrc[("pred", p)]: 1.0, xw[w]: 1.0}, a))
             for w in range(warps) for p in range(np_)}
        P2.heads.append(predicate_file(sp, f"guard.{s}.p", np_, lanes, q, G, warps=warps))
        # ... and a predicate destination's old value (a guarded setp or predicate op)
        qd = {np_ * w + p: (0, and_form({src[("pred", p)]: 1.0, xw[w]: 1.0}, a))
              for w in range(warps) for p in range(np_)}
        P2.heads.append(predicate_file(sp, f"guard.{s}.d", np_, lanes, qd, Dp, warps=warps))
        for j in range(s):
            for lane in range(lanes):
                P2.gated(a, {gsrc[("pfwd", j)]: 1.0}, 1, {self.b.pred_results[j][lane]: 1.0}, {G[lane]: 1.0})
                P2.gated(a, {src[("pfwd", j)]: 1.0}, 1, {self.b.pred_results[j][lane]: 1.0}, {Dp[lane]: 1.0})
        P2.clear(a, gsrc)
        P2.reads += ["gsrc", "src.d", "pr.*", "ctx.warp"]
        P2.writes += ["Gv", "Dp"]
        # B + 4: which lanes skip the instruction
        P4 = self.L[B + 4]
        for lane in range(lanes):
            P4.step(a, lin({flags["pos"]: 1.0, a: 1.0}, {G[lane]: -1.0}), 1.5, {skip[lane]: 1.0})
            P4.step(a, {flags["neg"]: 1.0, G[lane]: 1.0}, 1.5, {skip[lane]: 1.0})
        P4.clear(a, G)
        P4.reads += [f"guard.{s}", "Gv"]
        P4.writes.append(skip.name)
        # B + 5: the lanes that write each predicate (0/1 per slot; summed over the block) and
        # that run the block's k-th store; the predicate merge (registers: ``unchanged``)
        P5 = self.L[B + 5]
        pdst, ops = self.b.pdsts[s], self.b.ops[s]
        pres = self.b.pred_results[s]
        st = ops["store"]
        before = {self.b.ops[t]["store"]: 1.0 for t in range(s)}
        for lane in range(lanes):
            for p in range(self.cfg.preds):
                P5.gated(a, {pdst[p]: 1.0, skip[lane]: -1.0}, 1, {a: 1.0}, {self.pwrote[(lane, p)]: 1.0})
            # the first store: a store with no store before it; the second: a store with exactly one
            # (2·st + before is 3 only then, as max_stores = 2 rules out a third)
            first = lin({st: 1.0, skip[lane]: -1.0}, {c: -w for c, w in before.items()})
            P5.gated(a, first, 1, {a: 1.0}, {self.mwrote[(0, lane)]: 1.0})
            if self.cfg.block.max_stores > 1:
                P5.gated(a, lin({st: 2.0, skip[lane]: -3.0}, before), 3, {a: 1.0}, {self.mwrote[(1, lane)]: 1.0})
            P5.gated(a, {skip[lane]: 1.0}, 1, {Dp[lane]: 1.0, pres[lane]: -1.0}, {pres[lane]: 1.0})
        P5.clear(a, Dp)
        P5.reads += [f"pdst.{s}", "op.*", skip.name, "Dp", f"pr.{s}"]
        P5.writes += ["pwrote", "mwrote", f"pr.{s}"]
        # B + 9: the merge
        P9 = self.L[B + MERGE_DEPTH]
        res = self.b.results[s]
        for lane in range(lanes):
            for i in range(8):
                value: Lin = {D[(lane, i)]: 1.0, res[(lane, i)]: -1.0}
                P9.gated(a, {skip[lane]: 1.0}, 1, value, {res[(lane, i)]: 1.0})
        P9.clear(a, D)
        P9.reads += [D.name, skip.name, f"r.{s}"]
        P9.writes.append(f"r.{s}")
        self.unchanged(s)

    # --- B + 3, B + 9, B + 12: does the destination keep its value? -------------------------------
    def unchanged(self, s: int) -> None:
        """``neq`` (``B + 9``) and the ``wrote`` update (``B + 12``; the last slot's is in the
        writeback). The old value comes from a register port of its own (``B + 3``, beside the
        slot's memory-base head) keyed by ``dst.s``."""
        sp, a, lanes = self.sp, self.a, self.lanes
        B = self.sched.mux(s)
        bk = self.banks(s)
        O, skip, neq = bk["O"], bk["skip"], self.neq
        dst, xw = self.b.dsts[s], self.b.ctx_warp
        P3 = self.L[B + 3]
        query = {16 * w + r: (0, and_form({dst[r]: 1.0, xw[w]: 1.0}, a))
                 for w in range(self.cfg.max_warps) for r in range(1, self.cfg.regs)}
        P3.heads.append(register_file(sp, f"regs.{s}.o", self.cfg.regs, lanes, query, O,
                                      warps=self.cfg.max_warps))
        P3.reads += [f"dst.{s}", "ctx.warp"]
        P3.writes.append(O.name)
        P9 = self.L[B + MERGE_DEPTH]
        res = self.b.results[s]
        for lane in range(lanes):
            for i in range(8):
                d = {res[(lane, i)]: 1.0, O[(lane, i)]: -1.0}
                P9.step(a, d, 0.5, {neq[lane]: 1.0})
                P9.step(a, {c: -w for c, w in d.items()}, 0.5, {neq[lane]: 1.0})
        P9.clear(a, O)
        P9.reads.append(O.name)
        P9.writes.append(neq.name)
        if s == self.sched.slots - 1:
            return  # the writeback finishes the last slot (WritebackBuilder._written_flags)
        P12 = self.L[B + UNCHANGED_DEPTH]
        for lane in range(lanes):
            for r in range(1, self.cfg.regs):
                w = self.wrote[(lane, r)]
                P12.gated(a, {dst[r]: 1.0, skip[lane]: -1.0}, 1, {neq[lane]: 1.0, w: -1.0}, {w: 1.0})
        P12.clear(a, neq, skip)
        P12.reads += [f"dst.{s}", skip.name, neq.name, "wrote"]
        P12.writes.append("wrote")
