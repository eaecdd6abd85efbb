"""Barriers (``bar.sync``): lanes that wait, and the ``BAR.c.p`` token that releases a CTA.

A release changes the state of lanes of *other* warps, whose pc-file entries cannot be
rewritten in place (a pass writes a state entry from what earlier layers know, never from the
entry itself; docs/circuit.md, "Why the mask rides in the token"). So a lane's entry never
changes at a release; instead each lane that arrives at a barrier records a **tag** — the
parity its CTA's release count will have after the release it waits for — and each warp keeps
its CTA's current **parity** ``R``. A lane waits while its tag differs from ``R``. When every
lane of CTA c that has not exited waits, the chooser emits ``BAR.c.p`` (p = the new parity);
that token writes ``R = p`` for the warps of c, and the same pass already sees them released.
A stale tag is harmless: ``R`` changes again only after every lane of the CTA re-arrived.

Layers (``E = Schedule.end``, all mixers below ``E`` were free):

=========  ==================================================================================
``E − 3``  mixer: each warp's CTA (``cta``, from the launch constant ``cta.w`` = 1 << ctaid);
           MLP: the warps a ``BAR`` token releases (``relw``)
``E − 2``  mixer: each warp's release parity ``R`` (``barR``; written by ``BAR``, 0 before);
           MLP: the tag this ``EXEC`` gives its lanes (``ntag``: none, or 1 − R at a ``bar``)
``E − 1``  mixer: each lane's tag (``tag``; written at ``EXEC`` for the active lanes);
           MLP: the lanes that wait (``wait``)
``E``      the pc file hides waiting lanes (output gates; ``writeback._pc_file``);
           MLP: per CTA, running lanes, waiting lanes, warps with parity 1 (``ctasum``)
``E + 1``  MLP: CTA c is to be released (``rel``), its parity is 1 (``ctaR``)
=========  ==================================================================================
"""

from __future__ import annotations

from compiler.circuit.layers import GAIN, KeyHead, LayerSpec, ValueHead
from compiler.circuit.space import Group, Space
from compiler.circuit.tokens import const_row
from compiler.circuit.words import and_form, latched

TAGS = ("none", 0, 1)


class BarrierBuilder:
    def __init__(self, space: Space, layers: list[LayerSpec], cfg, end: int, term_bar: Group):
        """``term_bar``: the terminator is a ``bar.sync`` (the writeback's terminator decode)."""
        self.sp, self.L, self.cfg, self.E = space, layers, cfg, end
        self.a = space["anchor"].start
        self.warps, self.lanes = cfg.max_warps, cfg.lanes
        self.ctas = range(cfg.max_warps)
        # inputs: token parts (S's low byte, BAR's CTA and parity, EXEC's warp and lanes), the latch
        self.kind, self.sx = space["tok.kind"], space["sx"]
        self.bar_cta, self.bar_p = space["bar.cta"], space["bar.p"]
        self.exec_warp, self.exec_lanes, self.ctx_warp = space["exec.warp"], space["exec.lanes"], space["ctx.warp"]
        self.term_bar = term_bar

    def build(self) -> None:
        self.geometry()
        self.parity()
        self.tags()

    def _state_head(self, name: str) -> KeyHead:
        """A one-row file read by every token (row 0; what is written is decided per value head)."""
        on = {self.a: GAIN / 2}
        return KeyHead(name=name, q={0: (0, dict(on))}, k={0: (0, dict(on))})

    def geometry(self) -> None:
        sp, a, L = self.sp, self.a, self.L[self.E - 3]
        cta = self.cta = sp.add("cta", [(w, c) for w in range(self.warps) for c in self.ctas], kind="scalar",
                                doc="warp w belongs to CTA c (0/1; all 0 for a warp the launch does not use)",
                                stage="writeback")
        head = self._state_head("cta")
        for w in range(self.warps):
            beta = and_form({self.kind["S"]: 1.0, **latched(sp, "K", const_row(f"cta.{w}", self.warps))}, a)
            vh = ValueHead(name=f"cta.{w}", nnz=1, beta=beta)
            for c in self.ctas:  # the value is 1 << c: bit c of the short value
                vh.v[c] = (0, {self.sx[(c, 1)]: GAIN, a: -GAIN / 2})
                vh.z[c] = {a: GAIN / 2}
                vh.out[c] = {cta[(w, c)]: 1.0}
            head.values.append(vh)
        L.heads.append(head)
        relw = self.relw = sp.add("relw", range(self.warps), kind="scalar",
                                  doc="this BAR token releases warp w (0/1)", stage="writeback")
        for w in range(self.warps):
            for c in self.ctas:
                L.gated(a, {self.bar_cta[c]: 1.0, cta[(w, c)]: 1.0}, 2, {a: 1.0}, {relw[w]: 1.0})
        L.reads += ["tok.kind", "latch.*", "sx", "bar.cta", "cta"]
        L.writes += ["cta", "relw"]

    def parity(self) -> None:
        sp, a, L = self.sp, self.a, self.L[self.E - 2]
        R = self.barR = sp.add("barR", range(self.warps), kind="scalar",
                               doc="parity of the release count of warp w's CTA (0/1; 0 before the first release)",
                               stage="writeback")
        head = self._state_head("barR")
        for w in range(self.warps):
            vh = ValueHead(name=f"barR.{w}", nnz=1, beta=and_form({self.relw[w]: 1.0}, a))
            for col, p in ((0, 1), (1, 0)):
                vh.v[col] = (0, {self.bar_p[p]: GAIN, a: -GAIN / 2})
                vh.z[col] = {a: GAIN / 2}
            vh.out[0] = {R[w]: 1.0}
            head.values.append(vh)
        L.heads.append(head)
        # the tag an EXEC gives its active lanes: none, or at a bar terminator 1 − R of its warp
        ntag = self.ntag = sp.add("ntag", TAGS, kind="scalar", doc="the tag this EXEC gives its lanes: none, or "
                                  "the parity that releases them (0/1)", stage="writeback")
        bar, xw = self.term_bar[0], self.ctx_warp
        L.gated(a, {bar: -1.0}, 0, {a: 1.0}, {ntag["none"]: 1.0})
        for w in range(self.warps):
            L.gated(a, {bar: 1.0, xw[w]: 1.0, R[w]: -1.0}, 2, {a: 1.0}, {ntag[1]: 1.0})
            L.gated(a, {bar: 1.0, xw[w]: 1.0, R[w]: 1.0}, 3, {a: 1.0}, {ntag[0]: 1.0})
        L.reads += ["relw", "bar.p", "term.bar", "ctx.warp", "barR"]
        L.writes += ["barR", "ntag"]

    def tags(self) -> None:
        sp, a, L = self.sp, self.a, self.L[self.E - 1]
        kind = self.kind
        entries = [(w, l) for w in range(self.warps) for l in range(self.lanes)]
        tag = sp.add("tag", [(w, l, t) for w, l in entries for t in (0, 1)], kind="scalar",
                     doc="lane l of warp w waits for the release that makes its CTA's parity t (0/1)",
                     stage="writeback")
        per = 8
        for h in range(0, len(entries), per):
            head = self._state_head(f"tags.{h // per}")
            for w, l in entries[h:h + per]:
                beta = and_form({kind["EXEC"]: 1.0, self.exec_warp[w]: 1.0, self.exec_lanes[(l, 1)]: 1.0}, a)
                vh = ValueHead(name=f"tags.{w}.{l}", nnz=1, beta=beta)
                for col, t in enumerate(TAGS):
                    vh.v[col] = (0, and_form({self.ntag[t]: 1.0}, a))
                    vh.z[col] = {a: GAIN / 2}
                    if t != "none":
                        vh.out[col] = {tag[(w, l, t)]: 1.0}
                head.values.append(vh)
            L.heads.append(head)
        wait = self.wait = sp.add("wait", entries, kind="scalar", doc="lane l of warp w waits at a barrier (0/1)",
                                  stage="writeback")
        R = self.barR
        for w, l in entries:
            L.gated(a, {tag[(w, l, 1)]: 1.0, R[w]: -1.0}, 1, {a: 1.0}, {wait[(w, l)]: 1.0})
            L.gated(a, {tag[(w, l, 0)]: 1.0, R[w]: 1.0}, 2, {a: 1.0}, {wait[(w, l)]: 1.0})
        L.reads += ["tok.kind", "exec.*", "ntag", "barR", "tag"]
        L.writes += ["tag", "wait"]

    def per_cta(self, runl: Group) -> None:
        """``E`` MLP and ``E + 1``: which CTA is to be released, and its parity (after the pc read:
        ``runl``, the writeback's running lanes)."""
        sp, a = self.sp, self.a
        M0, M1 = self.L[self.E], self.L[self.E + 1]
        cta, wait, R = self.cta, self.wait, self.barR
        sums = sp.add("ctasum", [(c, k) for c in self.ctas for k in ("run", "wait", "R")], kind="scalar",
                      doc="CTA c: running lanes, waiting lanes, warps whose parity is 1", stage="writeback")
        for c in self.ctas:
            for w in range(self.warps):
                on = {cta[(w, c)]: 1.0}
                M0.gated(a, on, 1, {runl[(w, l)]: 1.0 for l in range(self.lanes)}, {sums[(c, "run")]: 1.0})
                M0.gated(a, on, 1, {wait[(w, l)]: 1.0 for l in range(self.lanes)}, {sums[(c, "wait")]: 1.0})
                M0.gated(a, on, 1, {R[w]: 1.0}, {sums[(c, "R")]: 1.0})
        M0.reads += ["cta", "pc.run", "wait", "barR"]
        M0.writes.append("ctasum")
        rel = self.rel = sp.add("rel", self.ctas, kind="scalar", doc="every lane of CTA c that has not exited "
                                "waits: release it (0/1)", stage="writeback")
        ctaR = self.ctaR = sp.add("ctaR", self.ctas, kind="scalar", doc="CTA c's parity is 1 (0/1)", stage="writeback")
        for c in self.ctas:
            M1.step(a, {sums[(c, "wait")]: 1.0, sums[(c, "run")]: -20.0}, 0.5, {rel[c]: 1.0})
            M1.step(a, {sums[(c, "R")]: 1.0}, 0.5, {ctaR[c]: 1.0})
        M1.reads.append("ctasum")
        M1.writes += ["rel", "ctaR"]
