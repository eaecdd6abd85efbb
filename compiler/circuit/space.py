"""The residual stream as named basis directions.

Every channel of the hidden vector has a name, e.g. ``("nib", "A.l2.3")`` —
the group and the value it stands for. Weights are written against names, never
against raw indices, and the allocation table (``Space.table()``) is dumped next
to the checkpoint so activations can be labelled (docs/circuit.md shows it).

A :class:`Group` is a set of directions that together code one quantity: a
one-hot code (``kind="onehot"``, exactly one direction carries 1) or a bundle of
scalar channels (``kind="scalar"``, e.g. the eight nibbles of a 32-bit value, each
holding 0..15).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Hashable, Iterable


@dataclass(frozen=True)
class Dir:
    """One basis direction: a group name and the value it stands for."""

    group: str
    value: Hashable = None

    def __str__(self) -> str:
        return self.group if self.value is None else f"{self.group}[{self.value}]"


@dataclass
class Group:
    name: str
    values: tuple
    kind: str
    """"onehot" (exactly one direction is 1) or "scalar" (each direction holds a number)."""
    doc: str
    stage: str
    """Pipeline stage that writes it (fetch / decode / execute / writeback / token)."""
    start: int = 0
    live: tuple[int, int | None] | None = None
    """(first, last) layer of the group's life once channels are shared (``alloc.py``; -1 is the
    embedding; last None: to the end, the LM head included): after the last, its channels may hold
    another group. None: the group has its channels to itself."""

    def __getitem__(self, value: Hashable) -> int:
        try:
            return self.start + self._pos[value]
        except KeyError:
            raise KeyError(f"group {self.name!r} has no value {value!r}") from None

    def __post_init__(self) -> None:
        self._pos = {v: i for i, v in enumerate(self.values)}
        if len(self._pos) != len(self.values):
            raise ValueError(f"group {self.name!r}: repeated values")

    def __len__(self) -> int:
        return len(self.values)

    def __contains__(self, value: Hashable) -> bool:
        return value in self._pos

    @property
    def indices(self) -> range:
        return range(self.start, self.start + len(self.values))

    def items(self) -> Iterable[tuple[Hashable, int]]:
        return ((v, self.start + i) for i, v in enumerate(self.values))


@dataclass
class Space:
    """An ordered set of named groups; the residual stream of the circuit."""

    name: str
    groups: dict[str, Group] = field(default_factory=dict)
    size: int = 0

    def add(self, name: str, values: Iterable[Hashable] | None = None, *, kind: str = "onehot",
            doc: str = "", stage: str = "") -> Group:
        if name in self.groups:
            raise ValueError(f"{self.name}: group {name!r} allocated twice")
        vals = tuple(values) if values is not None else (None,)
        g = Group(name, vals, kind, doc, stage, start=self.size)
        self.groups[name] = g
        self.size += len(vals)
        return g

    def shared(self, name: str, values: Iterable[Hashable] | None = None, **kw) -> Group:
        """A group that several stages reuse in turn (a *bank*): allocated by the first caller.
        Each user must leave it cleared (all 0) for the next one (``LayerSpec.clear``)."""
        if name in self.groups:
            return self.groups[name]
        return self.add(name, values, **kw)

    def __getitem__(self, name: str) -> Group:
        try:
            return self.groups[name]
        except KeyError:
            raise KeyError(f"{self.name}: no group {name!r}") from None

    def alive(self, layer: int | None = None) -> list[Group]:
        """The groups whose channels hold them at ``layer`` (all of them when ``layer`` is None or
        no channel is shared)."""
        return [g for g in self.groups.values()
                if layer is None or g.live is None or
                g.live[0] <= layer and (g.live[1] is None or layer <= g.live[1])]

    def dir_name(self, index: int, layer: int | None = None) -> str:
        for g in self.alive(layer):
            if g.start <= index < g.start + len(g):
                return str(Dir(g.name, g.values[index - g.start]))
        raise IndexError(index)

    def table(self) -> list[dict]:
        """The allocation dump: one row per group (first channel, width, kind, stage, meaning, and
        the layers it lives in when channels are shared)."""
        return [{"group": g.name, "first": g.start, "width": len(g), "kind": g.kind,
                 "stage": g.stage, "doc": g.doc,
                 **({"values": [str(v) for v in g.values]} if g.kind == "onehot" else {}),
                 **({"live": list(g.live)} if g.live is not None else {})}
                for g in self.groups.values()]


def alive_rows(table: list[dict], layer: int) -> list[dict]:
    """The rows of ``Space.table()`` (``qgpu_layout.json``'s ``residual``) whose group holds its
    channels at ``layer`` (-1: the embedding): what a decoder of the residual after that layer, or of
    what that layer changed, reads. Groups that share channels never live at the same layer."""
    return [r for r in table if "live" not in r or
            r["live"][0] <= layer and (r["live"][1] is None or layer <= r["live"][1])]
