"""What every layer reads and writes, derived from the weight forms it emits, and the verifier.

A layer's **ports** are the residual groups its weights touch: it *reads* a group when a channel
of it enters a neuron's gate or up form, a head's query, key, value, write strength (beta) or
output gate; it *writes* a group when a neuron's down form or a value head's output form adds to
one of its channels (clearing a bank is a write). The anchor channel enters every threshold as
its bias and is not counted. Nothing here is written by hand: it is read off the ``LayerSpec``
forms the circuit compiler built, the same entries that become the checkpoint's tensors.

The units also **declare** what a layer may touch (``LayerSpec.reads`` / ``writes``, next to the
code that emits the weights; ``x.*`` covers every group named ``x.…``). :func:`verify` runs after
every build (``gpu.build_spec``) and fails, naming the layer and the groups, when a layer's weights
touch a group its declaration leaves out, or touch the ballast, which no weight may (tracr asserts
the subspaces a block touches; LLVM verifies between passes).

:func:`live_channels` counts, after each layer, the channels whose group holds a value some later
layer (or the LM head) still reads: the width a perfect reuse of banks would need there
(docs/circuit.md, "Layers").
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Iterable

from compiler.circuit.layers import LayerSpec, Lin
from compiler.circuit.space import Space

EXEMPT = ("anchor",)
"""Groups every layer may read without declaring them (the anchor is every threshold's bias)."""
FORBIDDEN = ("ballast",)
"""Groups no weight may touch: the ballast only makes the residual's RMS exact."""


@dataclass
class Ports:
    reads: list[str] = field(default_factory=list)
    """Groups read, in residual order."""
    writes: list[str] = field(default_factory=list)


def owners(space: Space, layer: int | None = None) -> list[str]:
    """Residual channel -> the name of the group it holds at ``layer`` (groups may share channels
    at different layers once ``alloc.py`` has packed them: ``Space.alive``)."""
    out = [""] * space.size
    for g in space.alive(layer):
        for i in g.indices:
            if out[i]:
                raise AssertionError(f"channel {i} holds {out[i]} and {g.name} at layer {layer}")
            out[i] = g.name
    return out


def groups_of(forms: Iterable[Lin], owner: list[str]) -> list[str]:
    """The groups (in residual order) whose channels carry a non-zero weight in ``forms``."""
    seen: dict[int, None] = {}
    for f in forms:
        for k, w in f.items():
            if w != 0.0:
                seen[k] = None
    return list(dict.fromkeys(owner[k] for k in sorted(seen)))


def read_forms(L: LayerSpec) -> Iterable[Lin]:
    for n in L.neurons:
        yield n.gate
        yield n.up
    for kh in L.heads:
        yield from (f for _, f in kh.q.values())
        yield from (f for _, f in kh.k.values())
        for vh in kh.values:
            yield from (f for _, f in vh.v.values())
            yield vh.beta
            yield from vh.z.values()


def write_forms(L: LayerSpec) -> Iterable[Lin]:
    for n in L.neurons:
        yield n.down
    for kh in L.heads:
        for vh in kh.values:
            yield from vh.out.values()


STAGES = ("fetch", "decode", "execute", "writeback")
"""The pipeline stages, in order; a residual group names the stage that writes it (``Group.stage``)."""


def produced(L: LayerSpec, owner: list[str]) -> list[str]:
    """The groups ``L`` computes a value into: its writes less the banks it only clears."""
    forms = [n.down for i, n in enumerate(L.neurons) if i not in L.clears]
    forms += [f for kh in L.heads for vh in kh.values for f in vh.out.values()]
    return groups_of(forms, owner)


def layer_stages(L: LayerSpec, space: Space, owner: list[str] | None = None) -> list[str]:
    """The pipeline stages ``L`` works for: the stages of the groups it computes (in pipeline
    order). The single source for the docs' layer table and the debugger's pipeline pane (both
    read it from ``qgpu_layout.json``)."""
    got = {space[g].stage for g in produced(L, owner or owners(space, L.index))}
    return [s for s in STAGES if s in got]


def layer_ports(L: LayerSpec, owner: list[str]) -> Ports:
    """The groups ``L``'s weights read and write (the anchor left out of the reads)."""
    return Ports([g for g in groups_of(read_forms(L), owner) if g not in EXEMPT], groups_of(write_forms(L), owner))


def declared(name: str, decl: Iterable[str]) -> bool:
    """Whether group ``name`` is covered by a declaration list (exact names and ``x.*``)."""
    return any(name == d or (d.endswith(".*") and name.startswith(d[:-1])) for d in decl)


class PortError(AssertionError):
    """A layer's weights touch a group its declaration leaves out (or the ballast)."""


def problems(layers: list[LayerSpec], space: Space) -> list[str]:
    """Every way the layers' weights go beyond their declared ports, one line each."""
    out = []
    for L in layers:
        p = layer_ports(L, owners(space, L.index))
        heads_r = [g for kh in L.heads for g in kh.reads]
        heads_w = [g for kh in L.heads for g in kh.writes]
        for kind, got, decl in (("reads", p.reads, L.reads + heads_r), ("writes", p.writes, L.writes + heads_w)):
            bad = [g for g in got if g in FORBIDDEN]
            if bad:
                out.append(f"layer {L.index} ({L.doc or L.stage}) {kind} {', '.join(bad)}: no weight may touch it")
            bad = [g for g in got if g not in FORBIDDEN and not declared(g, decl)]
            if bad:
                out.append(f"layer {L.index} ({L.doc or L.stage}) {kind} {', '.join(bad)}: not declared "
                           f"(declared: {', '.join(dict.fromkeys(decl)) or 'nothing'})")
    return out


def verify(layers: list[LayerSpec], space: Space) -> None:
    """Raise :class:`PortError` listing every layer that touches an undeclared group."""
    bad = problems(layers, space)
    if bad:
        raise PortError("the circuit's weights touch groups their layers do not declare:\n  " + "\n  ".join(bad))


def live_channels(layers: list[LayerSpec], space: Space, embed: dict[int, Lin], unembed: dict[int, Lin]) -> list[int]:
    """After each layer: the channels of every group that holds a value a later layer reads.

    A group is live after layer ``i`` when it was written at or before ``i`` (the embedding counts as
    a write before layer 0) and the next layer after ``i`` that touches it reads it (a layer that
    reads and writes a group reads the value before its write lands); the LM head reads after the
    last layer. Group granularity: a bank whose every channel is cleared counts as dead once cleared
    only if no later layer reads it before writing it again."""
    n = len(layers)
    ev = events(layers, space)
    written_by: dict[str, int] = {g: -1 for g in groups_of(embed.values(), owners(space, -1))}
    for g, touches in ev.items():
        for i, what in touches:
            if what in "wc":
                written_by.setdefault(g, i)
                break
    for g in groups_of(unembed.values(), owners(space, n)):
        ev.setdefault(g, []).append((n, "r"))
    width = {g.name: len(g) for g in space.groups.values()}
    out = []
    for i in range(n):
        total = 0
        for g, first in written_by.items():
            if first > i:
                continue
            after = sorted((j, what != "r") for j, what in ev.get(g, []) if j > i)  # a read first at a layer
            if after and not after[0][1]:
                total += width[g]
        out.append(total)
    return out


def events(layers: list[LayerSpec], space: Space) -> dict[str, list[tuple[int, str]]]:
    """Group -> (layer, what) for every layer whose weights touch it, in layer order: ``r`` read,
    ``w`` computed into (``produced``), ``c`` cleared (``LayerSpec.clear``); one layer may do several.
    What ``live_channels`` and the channel allocator (``alloc.lives``) are computed from."""
    out: dict[str, list[tuple[int, str]]] = {}
    for L in layers:
        owner = owners(space, L.index)
        touches = [(g, "r") for g in layer_ports(L, owner).reads]
        touches += [(g, "w") for g in produced(L, owner)]
        touches += [(g, "c") for g in groups_of([L.neurons[i].down for i in sorted(L.clears)], owner)]
        for g, what in touches:
            out.setdefault(g, []).append((L.index, what))
    return out
