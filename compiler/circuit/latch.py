"""Layer 0, the latch: remembers the last address token so payload tokens know their target.

One key head with a single state row (row 0). Every address token (``I``, ``R``, ``M``,
``K``) overwrites row 0 with its address digits; every token reads row 0 back. After
this layer the residual holds ``latch.*`` — the address the current record writes to
(for an address token, its own address). The lane is a value head of its own, written by
address tokens and by a register record's lane values (``S.l.x``, ``B0.l.x``): an ``R.r``
record names its register once and then one value per writing lane.
"""

from __future__ import annotations

from compiler.circuit.layers import GAIN, KeyHead, LayerSpec, ValueHead
from compiler.circuit.space import Space
from compiler.circuit.tokens import ADDR_KINDS

LATCH_GROUPS = (("kind", "tok.kind", ADDR_KINDS), ("slot", "addr.slot", None), ("lane", "addr.lane", None),
                ("hi", "addr.hi", None), ("lo", "addr.lo", None))


def build_latch(space: Space, index: int) -> LayerSpec:
    L = LayerSpec(index, "fetch", "latch: the last address token (I/R/M/K) is kept in state row 0; the lane "
                  "also by a lane value (S.l.x, B0.l.x)", reads=["tok.kind", "addr.*", "vlane"], writes=["latch.*"])
    a = space["anchor"].start
    kind, vlane = space["tok.kind"], space["vlane"]
    is_addr = {kind[k]: 1.0 for k in ADDR_KINDS}
    is_lane = {**is_addr, **{vlane[l]: 1.0 for l in vlane.values}}  # exclusive: a lane value is no address
    on = {a: GAIN / 2}  # pre-activation of an always-on gate

    def gate(form: dict[int, float]) -> dict[int, float]:
        return {**{i: GAIN * w for i, w in form.items()}, a: -GAIN / 2}

    head = KeyHead(name="latch", q={0: (0, dict(on))}, k={0: (0, gate(is_lane))})
    # value heads: kind | slot and hi | lo (address tokens), lane (address tokens and lane values)
    for groups, written_by in ((LATCH_GROUPS[:2], is_addr), (LATCH_GROUPS[3:], is_addr), (LATCH_GROUPS[2:3], is_lane)):
        vh = ValueHead(name="latch." + "+".join(g[0] for g in groups), nnz=len(groups), beta=gate(written_by))
        col = 0
        for short, src, values in groups:
            g = space[src]
            vals = values if values is not None else g.values
            dst = space.add(f"latch.{short}", vals, doc=f"latched address: {short}", stage="fetch")
            for v in vals:
                form = {g[v]: 1.0, **({vlane[v]: 1.0} if short == "lane" and v in vlane.values else {})}
                vh.v[col] = (0, gate(form))
                vh.z[col] = dict(on)
                vh.out[col] = {dst[v]: 1.0}
                col += 1
        head.values.append(vh)
    L.heads.append(head)
    L.heads.append(_context_head(space))
    L.reads.append("exec.*")
    L.writes.append("ctx.*")
    return L


def _context_head(space: Space) -> KeyHead:
    """The step context: every ``EXEC.b.w.m`` overwrites row 0 with (b, w, m); every token reads it,
    so the passes after an EXEC (its writeback tokens) still know which block, warp and active
    lanes they belong to."""
    a = space["anchor"].start
    kind = space["tok.kind"]
    on = {a: GAIN / 2}
    exec_on = {kind["EXEC"]: GAIN, a: -GAIN / 2}
    head = KeyHead(name="ctx", q={0: (0, dict(on))}, k={0: (0, dict(exec_on))})
    lanes = len(space["exec.lanes"]) // 2
    # value head 0: the block one-hot (one column per ROM block); value head 1: warp | lane bits
    for groups, nnz in ((("block",), 1), (("warp", "lanes"), 1 + lanes)):
        vh = ValueHead(name="ctx." + "+".join(groups), nnz=nnz, beta=dict(exec_on))
        col = 0
        for short in groups:
            g = space[f"exec.{short}"]
            out = space.add(f"ctx.{short}", g.values, stage="fetch",
                            doc=f"block / warp / active lanes of the current step (latched exec.{short})")
            for v in g.values:
                vh.v[col] = (0, {g[v]: GAIN, a: -GAIN / 2})
                vh.z[col] = dict(on)
                vh.out[col] = {out[v]: 1.0}
                col += 1
        head.values.append(vh)
    return head
