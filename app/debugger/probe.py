"""The per-layer probe: what the last forward pass computed, layer by layer.

For the current token (the pass that produced it), one row per layer: its pipeline stage (the
checkpoint's ``qgpu_layout.json``), the named residual groups it changed at the last position
(the residual after the layer minus the residual before it), each with its value where the group
is a code (one-hot: the value of its largest entry; one channel: the number), and the DeltaNet
state rows its heads wrote, each named by what the layout says lives there: register r of lane l
of warp w, memory word k, a ROM block, a lane's pc. "Changed" means by more than ``REL`` of the
largest change that layer made: a one-hot key is not exactly one-hot after the l2 norm, and a
write leaves residues ~1e-26 in the other rows (seen on the 3:32 checkpoint, register writes of 64).

It is computed only when asked (the pane is shown): the backend goes back one pass (exact: a
keyframe and re-execution) and runs that pass again keeping every layer's residual and the state
before and after it; the result is the same token (checked). Nothing here feeds the model.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import torch

from compiler.circuit.space import alive_rows
from compiler.circuit.words import REG_ROWS


REL = 1e-6
"""A change smaller than this fraction of the layer's largest change is rounding, not a write."""


@dataclass
class LayerProbe:
    index: int
    stage: str
    """The layout's stage for a GPU layer; ``base`` for a merged model's own layers."""
    groups: list[tuple[str, str]] = field(default_factory=list)
    """(group, its value after the layer) for every residual group the layer changed."""
    writes: list[str] = field(default_factory=list)
    """The state rows the layer's heads wrote, named."""
    doc: str = ""
    values: dict[str, list[float]] = field(default_factory=dict)
    """Every changed group's channels after the layer (the detail view of a selected layer)."""
    ports: tuple[list[str], list[str]] = ((), ())
    """The residual groups the layer's weights read and write (``qgpu_layout.json``, derived from
    the weights by compiler/circuit/ports.py); empty for a base layer."""


@dataclass
class Probe:
    pos: int
    """The pass probed (it produced token pos - 1)."""
    token: str
    layers: list[LayerProbe]


def _value(group: dict, x: torch.Tensor) -> str:
    if group["kind"] == "onehot":
        if float(x.abs().max()) == 0.0:
            return "-"
        i = int(x.argmax())
        values = group.get("values")
        return str(values[i]) if values else f"#{i}"
    if group["width"] == 1:
        return f"{float(x[0]):.4g}"
    return f"{int((x != 0).sum())}/{group['width']} channels non-zero"


def _state_names(layout: dict, cfg) -> dict[tuple[int, int], object]:
    """(layer, key head) -> how to name a written (value head offset, row) of it."""
    from compiler.circuit.rom import ROW_GROUPS

    st = layout["state"]
    names: dict[tuple[int, int], object] = {}
    for c in st.get("copies", {}).get("registers", []):
        names[(c["layer"], c["head"])] = lambda j, row, n=c["name"]: (
            f"{n} r{row % REG_ROWS}@w{row // REG_ROWS}.l{j // 2}")
    for c in st.get("copies", {}).get("memory", []):
        names[(c["layer"], c["head"])] = lambda j, row, n=c["name"]: f"{n} mem[{row}]"
    for loc in st.get("rom", []):
        names[(loc["layer"], loc["head"])] = lambda j, row, s=loc["slot"]: (
            f"rom slot {s} B{row // ROW_GROUPS}")
    entries = [(w, lane) for w in range(cfg.max_warps) for lane in range(cfg.lanes)]
    for what in ("pcs", "tags"):
        locs = st.get(what, [])
        per = len(entries) // max(1, len(locs))
        for k, loc in enumerate(locs):
            names[(loc["layer"], loc["head"])] = lambda j, row, w=what, base=k * per: (
                f"{w[:-1]} w{entries[base + j][0]}.l{entries[base + j][1]}" if base + j < len(entries) else w)
    if "parity" in st:
        loc = st["parity"]
        names[(loc["layer"], loc["head"])] = lambda j, row: f"parity w{j}"
    for what in ("registers", "predicates", "memory"):
        loc = st.get(what)
        if isinstance(loc, dict) and (loc["layer"], loc["head"]) not in names:
            names[(loc["layer"], loc["head"])] = lambda j, row, w=what: f"{w} row {row} head +{j}"
    return names


def describe(layout: dict, cfg, pos: int, token: str, hidden: list[torch.Tensor],
             before: dict[int, torch.Tensor], after: dict[int, torch.Tensor]) -> Probe:
    """The probe of one pass: ``hidden`` = the residual at the last position after the embedding
    and after every layer; ``before``/``after`` = each DeltaNet layer's state (value heads, dk, dv)."""
    groups = layout.get("residual", [])
    specs = {L["index"]: L for L in layout.get("layers", [])}
    m = layout["state"]["heads_per_key"]
    names = _state_names(layout, cfg)
    out = []
    for i in range(len(hidden) - 1):
        d = (hidden[i + 1] - hidden[i]).abs()
        big = d > REL * float(d.max())
        spec = specs.get(i)
        lp = LayerProbe(i, spec["stage"] if spec else "base", doc=spec.get("doc", "") if spec else "",
                        ports=(spec.get("reads", []), spec.get("writes", [])) if spec else ((), ()))
        for g in alive_rows(groups, i):  # the groups layer i can touch (channels are shared over layers)
            sl = slice(g["first"], g["first"] + g["width"])
            if bool(big[sl].any()):
                lp.groups.append((g["group"], _value(g, hidden[i + 1][sl])))
                lp.values[g["group"]] = [float(v) for v in hidden[i + 1][sl]]
        if i in before and i in after:
            heads_names = spec.get("key_heads", []) if spec else []
            ds = (after[i] - before[i]).abs().amax(dim=-1)  # (value heads, rows)
            changed = ds > REL * float(ds.max())
            for h, row in changed.nonzero().tolist():
                k, j = divmod(h, m)
                name = names.get((i, k))
                if name is not None:
                    text = name(j, row)
                else:
                    head = heads_names[k] if k < len(heads_names) else f"head {k}"
                    text = f"{head} row {row}"
                if text not in lp.writes:
                    lp.writes.append(text)
        out.append(lp)
    return Probe(pos, token, out)
