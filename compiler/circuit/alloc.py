"""Channel allocation: groups whose lives do not overlap share residual channels.

The units allocate every group its own channels while they build (``Space.add``; a *bank*,
``Space.shared``, is already one group several units use in turn). This pass runs after the
verifier (``gpu.build_spec``) and packs the groups into fewer channels, the way a register
allocator packs virtual registers: it reads, from the weight forms (``ports.py``), the layers at
which each group is first and last touched, and lets a group take channels another group has
handed over **clean**.

A group hands its channels over clean after layer ``e`` when the last thing done to it is a
``clear`` in the MLP of layer ``e`` (``LayerSpec.clears``; it subtracts the value, leaving at most
~1e-5 of it in float32 and nothing in bfloat16, far below every margin) and nothing in that MLP
writes it again. Every other group keeps its channels to the end (a value left in a channel
would add to the next occupant's). A group's life starts at its first read, write or clear (the
embedding counts as a write before layer 0): a unit that accumulates into a group, or reads it
before writing, finds zeros there, as it did in channels of its own. Two groups share a channel
only when one is handed over clean at layer ``e`` and the other starts at a layer after ``e``.

The anchor and the ballast keep channels 0..4; groups the LM head reads live to the end. The
result is the same machine in fewer channels: :func:`allocate` rewrites every form (neurons,
heads, embeddings, LM head) through the channel map and records each group's life
(``Group.live``) so that ``qgpu_layout.json`` and every decoder of the residual know which group
a shared channel holds after a given layer.
"""

from __future__ import annotations

from compiler.circuit.layers import LayerSpec, Lin
from compiler.circuit.ports import events, groups_of, owners
from compiler.circuit.space import Space

PINNED = ("anchor", "ballast")


def lives(layers: list[LayerSpec], space: Space, embed: dict[int, Lin], unembed: dict[int, Lin]
          ) -> dict[str, tuple[int, int]]:
    """Group -> (first layer, last layer) of its life; the embedding is layer -1 and "to the end" is
    ``len(layers)`` (the LM head's read). The channels are free again after the last layer only
    when the group is handed over clean there (module docstring); otherwise the life runs to the
    end."""
    n = len(layers)
    ev_of = events(layers, space)
    from_embed = set(groups_of(embed.values(), owners(space, -1)))
    to_head = set(groups_of(unembed.values(), owners(space, n)))
    out: dict[str, tuple[int, int]] = {}
    for g in space.groups.values():
        ev = ev_of.get(g.name, [])
        if g.name in PINNED:
            out[g.name] = (-1, n)
            continue
        start = -1 if g.name in from_embed else min((i for i, _ in ev), default=n)
        end = n
        if ev and g.name not in to_head:
            last = max(i for i, _ in ev)
            at_last = {k for i, k in ev if i == last}
            if "c" in at_last and "w" not in at_last:  # cleared, and nothing computed into it there
                end = last
        out[g.name] = (start, end)
    return out


def pack(space: Space, life: dict[str, tuple[int, int]]) -> dict[str, int]:
    """Group -> first channel: first fit in order of the life's start (wider groups first), a
    group taking the lowest channels no group alive with it holds."""
    starts: dict[str, int] = {}
    placed: list[tuple[int, int, int]] = []  # (first channel, width, end of life)
    order = [g for g in space.groups.values() if g.name in PINNED]
    order += sorted((g for g in space.groups.values() if g.name not in PINNED),
                    key=lambda g: (life[g.name][0], g.start))
    for g in order:
        s, e = life[g.name]  # noqa: F841 (e: recorded below with the placement)
        # groups are placed in order of their start: one placed earlier overlaps this one's life
        # exactly when it ends at or after this one starts
        busy = sorted((o, w) for o, w, end in placed if end >= s)
        off = 0
        for o, w in busy:
            if off + len(g) <= o:
                break
            off = max(off, o + w)
        starts[g.name] = off
        placed.append((off, len(g), e))
    return starts


def _map(form: Lin, m: list[int]) -> Lin:
    out: Lin = {}
    for k, w in form.items():
        j = m[k]
        if j in out:
            raise AssertionError(f"channels {k} and another map to {j} in one form: two live groups share it")
        out[j] = w
    return out


def allocate(spec) -> None:
    """Pack ``spec``'s groups (in place): new channel of every group, every form rewritten, each
    group's ``live`` recorded, ``space.size`` the packed width."""
    space: Space = spec.space
    life = lives(spec.layers, space, spec.embed, spec.unembed)
    starts = pack(space, life)
    m = [0] * space.size
    for g in space.groups.values():
        for i in range(len(g)):
            m[g.start + i] = starts[g.name] + i
    for L in spec.layers:
        for n in L.neurons:
            n.gate, n.up, n.down = _map(n.gate, m), _map(n.up, m), _map(n.down, m)
        for kh in L.heads:
            kh.q = {r: (lag, _map(f, m)) for r, (lag, f) in kh.q.items()}
            kh.k = {r: (lag, _map(f, m)) for r, (lag, f) in kh.k.items()}
            for vh in kh.values:
                vh.v = {c: (lag, _map(f, m)) for c, (lag, f) in vh.v.items()}
                vh.beta = _map(vh.beta, m)
                vh.z = {c: _map(f, m) for c, f in vh.z.items()}
                vh.out = {c: _map(f, m) for c, f in vh.out.items()}
    spec.embed = {t: _map(f, m) for t, f in spec.embed.items()}
    spec.unembed = {t: _map(f, m) for t, f in spec.unembed.items()}
    for g in space.groups.values():
        g.start = starts[g.name]
        s, e = life[g.name]
        g.live = (s, None if e >= len(spec.layers) else e)
    space.size = max(g.start + len(g) for g in space.groups.values())
    spec.anchor = space["anchor"].start
