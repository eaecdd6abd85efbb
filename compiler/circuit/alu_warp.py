"""Cross-lane ops in one slot: ``vote.{any,all,uni,ballot,active}`` and ``shfl.{up,down,bfly,idx}``.

A thread's lane in a 32-lane NVIDIA warp (its *hardware lane*, what masks and shuffle lane
numbers mean) is ``hw = tid mod 32``; a CTA holds at most 16 threads, so ``hw = 4·J + l`` for
our lane l of the CTA's J-th warp. The constants port reads ``tid`` for these ops
(``execute.SlotBuilder.operands``); ``J`` becomes a one-hot (``warp.J``) at ``B``.

Only launches the interpreter runs without a fault need to be right: every member lane runs
the op, and every shuffle source lies in the same 4-lane warp (docs/machine.md), so a
shuffle's source is one of our 4 lanes, the member mask of a shuffle does not matter, and a
vote's participants are the step's active lanes whose bit ``hw`` is in the mask.

Per slot (``B = Schedule.mux(s)``):

==========  ====================================================================================
``B``       ``J`` one-hot from ``tid`` (and the constant read cleared from ``r.s``)
``B + 1,2`` bits of operand nibbles 0..3 of b and c (three steps, then one; bit 0 is linear)
``B + 3``   vote: lane l is in the member mask (bit l of mask nibble J)
``B + 4``   vote: per lane "takes part and votes 1 / 0";
            shuffle: the source lane as a one-hot, per mode, from the low bits of b and c; the
            bits of ``max_lane = (hw & seg) | (clamp & ~seg)`` and of the idx source lane;
            ``hw − b``, ``hw + b``, ``hw ^ b``
``B + 5``   vote: ``any``/``all``/``uni`` into ``pr.s``, ``ballot``/``active`` into ``r.s``;
            shuffle: the source lane's a into ``r.s`` (and own a − that into ``D``), in range
            (``pr.s``, its second destination) from 5-bit compares (PTX's rule, as in
            engine/interpreter.py)
``B + 6``   shuffle: out of range → the lane's own a (``r.s += (1 − ok)·D``)

A shuffle's or ballot's register result is therefore ready two slots later
(``BlockLimits.mul_latency``, ``vcfg_to_blocks.LATENT``).
==========  ====================================================================================

Every decision is a step on a sum below 64: exact in bfloat16 too.
"""

from __future__ import annotations

from compiler.circuit.layers import Lin, lin

VOTES = ("vote.any", "vote.all", "vote.uni", "vote.ballot", "vote.active")
SHUFFLES = ("shfl.up", "shfl.down", "shfl.bfly", "shfl.idx")
MERGE = 6
"""Layer (after ``B``) where a shuffle's register result is final."""


class WarpOps:
    def __init__(self, slots):
        self.b = slots
        self.sp, self.L, self.cfg, self.sched = slots.sp, slots.L, slots.cfg, slots.sched
        self.a = slots.a
        self.lanes = range(slots.lanes)
        sp = self.sp
        self.J = sp.shared("warp.J", [(l, j) for l in self.lanes for j in range(4)], kind="scalar",
                           doc="cross-lane op: lane l's warp is the J-th of its CTA (hw lane = 4·J + l; bank)",
                           stage="decode")
        self.bits = sp.shared("warp.bits", [(x, l, i, k) for x in "bc" for l in self.lanes for i in range(4)
                                             for k in range(4)], kind="scalar",
                              doc="cross-lane op: the bits of operand nibbles 0..3 of b and c (0 for any other op; "
                              "bank)", stage="execute")

    def build(self, s: int) -> None:
        self.lane_position(s)
        self.operand_bits(s)
        self.votes(s)
        self.shuffles(s)

    # --- shared by both: J, and the operand bits ---------------------------------------------
    def lane_position(self, s: int) -> None:
        a = self.a
        L = self.L[self.sched.mux(s)]
        ops, res = self.b.ops[s], self.b.results[s]
        for l in self.lanes:
            n0 = {res[(l, 0)]: 1.0}  # tid = 4·J + l (the constants port)
            for j in range(4):
                if j > 0:
                    L.flag_step(a, n0, 4 * j - 0.5, {self.J[(l, j)]: 1.0}, ops["warp"])
                else:
                    L.gated(a, {ops["warp"]: 1.0}, 1, {a: 1.0}, {self.J[(l, 0)]: 1.0})
                if j < 3:
                    L.flag_step(a, n0, 4 * j + 3.5, {self.J[(l, j)]: -1.0}, ops["warp"])
            L.gated(a, {ops["warp"]: 1.0}, 1, {res[(l, 0)]: -1.0}, {res[(l, 0)]: 1.0})
        L.reads += [f"op.{s}", f"r.{s}"]
        L.writes += ["warp.J", f"r.{s}"]

    def operand_bits(self, s: int) -> None:
        a = self.a
        B = self.sched.mux(s)
        L1, L2 = self.L[B + 1], self.L[B + 2]
        vals, flag = self.b.operand_groups(s), self.b.ops[s]["warp"]
        for x in "bc":
            for l in self.lanes:
                for i in range(4):
                    n = {vals[x][(l, i)]: 1.0}
                    h = {k: self.bits[(x, l, i, k)] for k in range(4)}
                    L1.flag_step(a, n, 7.5, {h[3]: 1.0, h[2]: -1.0}, flag)
                    L1.flag_step(a, n, 3.5, {h[2]: 1.0}, flag)
                    L1.flag_step(a, n, 11.5, {h[2]: 1.0}, flag)
                    m = lin(n, {h[3]: -8.0, h[2]: -4.0})  # n mod 4 (for a cross-lane op)
                    L2.flag_step(a, m, 1.5, {h[1]: 1.0}, flag)
                    for t, w in ((0.5, 1.0), (1.5, -1.0), (2.5, 1.0)):  # bit 0 as a channel: every
                        L2.flag_step(a, m, t, {h[0]: w}, flag)          # other op leaves it 0
        L1.reads += [vals["b"].name, vals["c"].name, f"op.{s}"]
        L1.writes.append(self.bits.name)
        L2.reads += [vals["b"].name, vals["c"].name, self.bits.name, f"op.{s}"]
        L2.writes.append(self.bits.name)

    def bit(self, s: int, x: str, l: int, t: int) -> Lin:
        """Bit t (0..15) of operand x (b or c) of lane l (0/1, and 0 unless the op is a cross-lane
        one: every gate below may rely on it), from B + 3 on."""
        i, k = divmod(t, 4)
        return {self.bits[(x, l, i, k)]: 1.0}

    def hw_bit(self, l: int, k: int) -> Lin:
        """Bit k of lane l's hardware lane 4·J + l (a form; the anchor for a constant 1)."""
        if k < 2:
            return {self.a: 1.0} if (l >> k) & 1 else {}
        if k < 4:
            return {self.J[(l, j)]: 1.0 for j in range(4) if (j >> (k - 2)) & 1}
        return {}

    # --- votes ------------------------------------------------------------------------------
    def votes(self, s: int) -> None:
        sp, a = self.sp, self.a
        B = self.sched.mux(s)
        ops, res, pres = self.b.ops[s], self.b.results[s], self.b.pred_results[s]
        act = {l: self.b.ctx_lanes[(l, 1)] for l in self.lanes}
        P = sp["Pa"]  # the vote's predicate operand a
        inm = sp.shared("vote.in", self.lanes, kind="scalar", doc="vote: lane l's hardware lane is in the "
                        "member mask (bank)", stage="execute")
        part = sp.shared("vote.t", [(l, v) for l in self.lanes for v in (0, 1)], kind="scalar",
                         doc="vote: lane l takes part and votes v (bank)", stage="execute")
        L3, L4, L5 = self.L[B + 3], self.L[B + 4], self.L[B + 5]
        for l in self.lanes:  # bit l of mask nibble J
            for j in range(4):
                L3.gated(a, lin({self.J[(l, j)]: 1.0}, self.bit(s, "b", l, 4 * j + l)), 2, {a: 1.0},
                         {inm[l]: 1.0})
        for l in self.lanes:
            L4.gated(a, {act[l]: 1.0, inm[l]: 1.0, P[l]: 1.0}, 3, {a: 1.0}, {part[(l, 1)]: 1.0})
            L4.gated(a, {act[l]: 1.0, inm[l]: 1.0, P[l]: -1.0}, 2, {a: 1.0}, {part[(l, 0)]: 1.0})
            # ballot / active: bit l in nibble J of every receiving lane r
            for r in self.lanes:
                for j in range(4):
                    L5.gated(a, {self.J[(r, j)]: 1.0, part[(l, 1)]: 1.0, ops["vote.ballot"]: 1.0}, 3, {a: 1.0},
                             {res[(r, j)]: float(1 << l)})
                    L5.gated(a, {self.J[(r, j)]: 1.0, act[l]: 1.0, ops["vote.active"]: 1.0}, 3, {a: 1.0},
                             {res[(r, j)]: float(1 << l)})
        ones = {part[(l, 1)]: 1.0 for l in self.lanes}
        zeros = {part[(l, 0)]: 1.0 for l in self.lanes}
        neg = lambda f: {c: -w for c, w in f.items()}  # noqa: E731
        for l in self.lanes:
            o = {pres[l]: 1.0}
            L5.flag_step(a, ones, 0.5, o, ops["vote.any"])
            L5.flag_step(a, neg(zeros), -0.5, o, ops["vote.all"])
            L5.flag_step(a, neg(ones), -0.5, o, ops["vote.uni"])    # uni: no 1, or no 0
            L5.flag_step(a, neg(zeros), -0.5, o, ops["vote.uni"])
            L5.flag_step(a, neg(lin(ones, zeros)), -0.5, {pres[l]: -1.0}, ops["vote.uni"])
        L3.reads += [self.J.name, self.bits.name]
        L3.writes.append(inm.name)
        L4.reads += ["ctx.lanes", inm.name, P.name]
        L4.writes.append(part.name)
        L5.reads += [self.J.name, part.name, "ctx.lanes", f"op.{s}"]
        L5.writes += [f"pr.{s}", f"r.{s}"]
        L4.clear(a, inm)
        L5.clear(a, part, self.J)  # the next slot writes J in this MLP too: clear + write

    # --- shuffles ---------------------------------------------------------------------------
    def shuffles(self, s: int) -> None:
        sp, a = self.sp, self.a
        B = self.sched.mux(s)
        ops, res, pres = self.b.ops[s], self.b.results[s], self.b.pred_results[s]
        A = self.b.operand_groups(s)["a"]  # the value; its bank is cleared at B + 5 (execute.memory)
        lanes = self.lanes
        src = sp.shared("shfl.src", [(l, v) for l in lanes for v in lanes], kind="scalar",
                        doc="shuffle: lane l reads lane v when in range (bank)", stage="execute")
        D = sp.shared("shfl.D", [(l, i) for l in lanes for i in range(8)], kind="scalar",
                      doc="shuffle: own a − the source lane's a (bank)", stage="execute")
        lbits = sp.shared("shfl.bits", [(l, n, k) for l in lanes for n in ("max", "idx") for k in range(5)],
                          kind="scalar", doc="shuffle: bits of max_lane and of the idx source lane (bank)",
                          stage="execute")
        hb = sp.shared("shfl.hb", [(l, m) for l in lanes for m in ("up", "down", "bfly")], kind="scalar",
                       doc="shuffle: hw − b (up), hw + b (down), hw ^ b (bfly), b & 31 (bank)", stage="execute")
        ok = sp.shared("shfl.ok", lanes, kind="scalar", doc="shuffle: the source lane is in range (bank)",
                       stage="execute")
        L4, L5, L6 = (self.L[B + k] for k in (4, 5, 6))
        shfl = {ops[m]: 1.0 for m in SHUFFLES}
        b = lambda l, k: self.bit(s, "b", l, k)  # noqa: E731  b & 31: bits 0..4
        clamp = lambda l, k: self.bit(s, "c", l, k)  # noqa: E731  c & 31
        seg = lambda l, k: self.bit(s, "c", l, 8 + k)  # noqa: E731  (c >> 8) & 31
        neg = lambda f: {c: -w for c, w in f.items()}  # noqa: E731

        def when(form: Lin, value: int) -> Lin:
            """A 0/1 form that is 1 when ``form`` (0/1) equals ``value``."""
            return dict(form) if value else lin({a: 1.0}, neg(form))

        # B + 4: the source lane (mod 4) of each mode as a one-hot; bits of max_lane and of the idx
        # source; hw − b, hw + b, hw ^ b
        for l in lanes:
            for d in range(4):  # up / down / bfly: from d = b mod 4
                form = lin(when(b(l, 0), d & 1), when(b(l, 1), d >> 1))
                for mode, v in (("shfl.up", (l - d) % 4), ("shfl.down", (l + d) % 4), ("shfl.bfly", l ^ d)):
                    L4.gated(a, lin(form, {ops[mode]: 1.0}), 3, {a: 1.0}, {src[(l, v)]: 1.0})
            for combo in range(16):  # idx: bit k (k = 0, 1) of the source is l's where seg has it, else b's
                sg, bb = combo & 3, combo >> 2
                v = (l & sg) | (bb & ~sg & 3)
                conds = [when(seg(l, k), (sg >> k) & 1) for k in range(2)] + \
                        [when(b(l, k), (bb >> k) & 1) for k in range(2)]
                L4.gated(a, lin(*conds, {ops["shfl.idx"]: 1.0}), 5, {a: 1.0}, {src[(l, v)]: 1.0})
            for k in range(5):
                hw = self.hw_bit(l, k)
                # (hw & seg) | (x & ~seg), x = clamp (max_lane) or b (idx source): two exclusive cases;
                # a constant hw bit (k = 0, 1, 4) leaves one step
                for name, x in (("max", clamp(l, k)), ("idx", b(l, k))):
                    out = {lbits[(l, name, k)]: 1.0}
                    if k in (2, 3):
                        L4.step(a, lin(hw, seg(l, k)), 1.5, out)
                        L4.step(a, lin(x, neg(seg(l, k))), 0.5, out)
                    elif hw:  # hw bit 1: seg | x
                        L4.step(a, lin(seg(l, k), x), 0.5, out)
                    else:     # hw bit 0: x & ~seg
                        L4.step(a, lin(x, neg(seg(l, k))), 0.5, out)
            hwv = lin(*[{c: w * (1 << k) for c, w in self.hw_bit(l, k).items()} for k in range(5)])
            bv = lin(*[{c: w * (1 << k) for c, w in b(l, k).items()} for k in range(5)])
            L4.gated(a, shfl, 1, lin(hwv, neg(bv)), {hb[(l, "up")]: 1.0})
            L4.gated(a, shfl, 1, lin(hwv, bv), {hb[(l, "down")]: 1.0})
            for k in range(5):  # hw ^ b, bit k: linear where the hw bit is a constant
                w = float(1 << k)
                if k in (2, 3):
                    x = lin(self.hw_bit(l, k), b(l, k))
                    L4.flag_step(a, x, 0.5, {hb[(l, "bfly")]: w}, shfl)
                    L4.flag_step(a, x, 1.5, {hb[(l, "bfly")]: -w}, shfl)
                else:
                    x = when(b(l, k), 0) if self.hw_bit(l, k) else b(l, k)
                    L4.gated(a, shfl, 1, {c: w * v for c, v in x.items()}, {hb[(l, "bfly")]: 1.0})
        # B + 5: the source's a (and own a − it); in range (PTX: up hw − b ≥ max_lane, down
        # hw + b ≤ max_lane, bfly hw ^ b ≤ max_lane, idx source ≤ max_lane)
        for l in lanes:
            for v in lanes:
                for i in range(8):
                    L5.gated(a, {src[(l, v)]: 1.0}, 1, {A[(v, i)]: 1.0}, {res[(l, i)]: 1.0, D[(l, i)]: -1.0})
            for i in range(8):
                L5.gated(a, shfl, 1, {A[(l, i)]: 1.0}, {D[(l, i)]: 1.0})
            mx = {lbits[(l, "max", k)]: float(1 << k) for k in range(5)}
            forms = {"shfl.up": lin({hb[(l, "up")]: 1.0}, neg(mx)),
                     "shfl.down": lin(mx, {hb[(l, "down")]: -1.0}),
                     "shfl.bfly": lin(mx, {hb[(l, "bfly")]: -1.0}),
                     "shfl.idx": lin(mx, {lbits[(l, "idx", k)]: -float(1 << k) for k in range(5)})}
            for mode, form in forms.items():
                L5.flag_step(a, form, -0.5, {ok[l]: 1.0, pres[l]: 1.0}, ops[mode])
        # B + 6: out of range → own a
        for l in lanes:
            for i in range(8):
                L6.gated(a, lin(shfl, {ok[l]: -1.0}), 1, {D[(l, i)]: 1.0}, {res[(l, i)]: 1.0})
        L4.clear(a, self.bits)
        L5.clear(a, src, lbits, hb)
        L6.clear(a, D, ok)
        L4.reads += [self.J.name, self.bits.name, f"op.{s}"]
        L4.writes += [src.name, lbits.name, hb.name]
        L5.reads += [src.name, A.name, lbits.name, hb.name, f"op.{s}"]
        L5.writes += [f"r.{s}", D.name, ok.name, f"pr.{s}"]
        L6.reads += [D.name, ok.name, f"op.{s}"]
        L6.writes.append(f"r.{s}")
