"""The ports verifier (compiler/circuit/ports.py): what each layer's weights read and write, checked
against what its units declare, and the live-channel count of the docs' layer table.

Expected values are written by hand from small layers built here (not read from ports.py's output).
"""

import pytest

from compiler.circuit.gpu import build_spec
from compiler.circuit.layers import KeyHead, LayerSpec, ValueHead
from compiler.circuit.ports import PortError, layer_ports, layer_stages, live_channels, owners, problems, verify
from compiler.circuit.space import Space
from compiler.machine.config import parse_machine


def _space():
    sp = Space("t")
    sp.add("anchor", kind="scalar", stage="token")
    sp.add("ballast", range(4), kind="scalar", stage="token")
    sp.add("tok", ("a", "b"), stage="token")
    sp.add("x.lo", range(2), kind="scalar", stage="decode")
    sp.add("x.hi", range(2), kind="scalar", stage="decode")
    sp.add("y", range(3), kind="scalar", stage="execute")
    sp.add("z", range(1), kind="scalar", stage="writeback")
    return sp


def test_ports_are_read_off_the_weight_forms():
    sp = _space()
    a = sp["anchor"].start
    L = LayerSpec(1, "", "")
    L.neuron({sp["x.lo"][0]: 1.0, a: -0.5}, {sp["tok"]["a"]: 1.0}, {sp["y"][2]: 2.0})
    head = KeyHead(name="h", q={0: (0, {sp["x.hi"][1]: 1.0})}, k={0: (0, {a: 1.0})})
    vh = ValueHead(name="h.0", beta={sp["tok"]["b"]: 1.0})
    vh.v[0] = (0, {sp["x.hi"][0]: 1.0})
    vh.out[0] = {sp["z"][0]: 1.0}
    head.values.append(vh)
    L.heads.append(head)
    p = layer_ports(L, owners(sp))
    assert p.reads == ["tok", "x.lo", "x.hi"]  # residual order; the anchor (every bias) is not counted
    assert p.writes == ["y", "z"]
    assert layer_stages(L, sp) == ["execute", "writeback"]
    # a cleared bank is read and written, declared by the clear itself, and no stage of the layer
    L.clear(a, sp["x.lo"])
    assert "x.lo" in layer_ports(L, owners(sp)).writes
    assert L.reads[-1] == "x.lo" and L.writes[-1] == "x.lo"
    assert layer_stages(L, sp) == ["execute", "writeback"]


def test_the_verifier_names_an_undeclared_write():
    sp = _space()
    a = sp["anchor"].start
    L = LayerSpec(3, "execute", "adder")
    L.neuron({sp["x.lo"][0]: 1.0, a: -0.5}, {a: 1.0}, {sp["y"][0]: 1.0})
    L.reads += ["x.*"]
    L.writes += ["y"]
    verify([L], sp)  # as declared
    L.neuron({sp["x.lo"][1]: 1.0}, {a: 1.0}, {sp["z"][0]: 1.0})  # a write nobody declared
    with pytest.raises(PortError, match=r"layer 3 \(adder\) writes z: not declared"):
        verify([L], sp)
    L.writes.append("z")
    verify([L], sp)
    L.neuron({sp["ballast"][0]: 1.0}, {a: 1.0}, {sp["y"][1]: 1.0})  # the ballast is never read
    L.reads.append("ballast")
    assert problems([L], sp) == ["layer 3 (adder) reads ballast: no weight may touch it"]


def test_the_verifier_fails_on_a_built_circuit_with_a_stray_write():
    """The real circuit passes (build_spec verifies it); one extra neuron into an undeclared group of
    a layer makes the same check fail."""
    spec = build_spec(parse_machine("1:8"))
    assert problems(spec.layers, spec.space) == []
    L = spec.layers[2]
    stray = next(g for g in spec.space.groups.values()
                 if g.name not in ("anchor", "ballast") and g.name not in L.writes and
                 not any(w.endswith(".*") and g.name.startswith(w[:-1]) for w in L.writes) and
                 g.name not in [n for kh in L.heads for n in kh.writes])
    L.neuron({spec.anchor: 1.0}, {spec.anchor: 1.0}, {stray.start: 1.0})
    bad = problems(spec.layers, spec.space)
    assert len(bad) == 1 and bad[0].startswith("layer 2 ") and f"writes {stray.name}: not declared" in bad[0]


def test_live_channels_by_hand():
    """x.lo (2 channels) written by the embedding, read at layer 1; y (3) written at 0, read at 2;
    z (1) written at 1, cleared at 2 (read and written there), read by the LM head; x.hi never
    written: never live."""
    sp = _space()
    a = sp["anchor"].start
    L0, L1, L2 = (LayerSpec(i, "", "") for i in range(3))
    L0.neuron({a: 1.0}, {a: 1.0}, {sp["y"][0]: 1.0})
    L1.neuron({sp["x.lo"][0]: 1.0}, {a: 1.0}, {sp["z"][0]: 1.0})
    L2.neuron({sp["y"][1]: 1.0}, {a: 1.0}, {sp["x.hi"][0]: 0.0})  # a zero weight touches nothing
    L2.clear(a, sp["z"])
    embed = {0: {sp["x.lo"][0]: 1.0}}
    unembed = {0: {sp["z"][0]: 1.0}}
    # after L0: x.lo (read at 1) + y (read at 2) = 5; after L1: y + z (read, by the clear, at 2) = 4;
    # after L2: z (the LM head reads it) = 1
    assert live_channels([L0, L1, L2], sp, embed, unembed) == [5, 4, 1]


def test_allocation_shares_only_channels_handed_over_clean():
    """By hand: ``y`` (3 channels) is written at layer 0, read and cleared at 1; ``z`` (1) starts at 2
    and may take y's first channel; ``x.hi`` (2) is written at 0 and read at 1 but never cleared, so
    nothing may take its channels; ``x.lo`` comes from the embedding and the LM head reads it."""
    from compiler.circuit.alloc import allocate, lives
    from compiler.circuit.checkpoint import CircuitSpec

    sp = _space()
    a = sp["anchor"].start
    L0, L1, L2 = (LayerSpec(i, "", "") for i in range(3))
    L0.neuron({a: 1.0}, {a: 1.0}, {sp["y"][0]: 1.0, sp["y"][2]: 1.0, sp["x.hi"][1]: 1.0})
    L1.neuron({sp["y"][1]: 1.0, sp["x.hi"][0]: 1.0}, {a: 1.0}, {sp["x.lo"][1]: 1.0})
    L1.clear(a, sp["y"])
    L2.neuron({sp["x.lo"][0]: 1.0}, {a: 1.0}, {sp["z"][0]: 1.0})
    embed = {0: {sp["x.lo"][0]: 1.0, sp["tok"]["a"]: 1.0}}
    unembed = {0: {sp["x.lo"][1]: 1.0, sp["z"][0]: 1.0}}
    assert lives([L0, L1, L2], sp, embed, unembed) == {
        "anchor": (-1, 3), "ballast": (-1, 3), "tok": (-1, 3), "x.lo": (-1, 3), "x.hi": (0, 3), "y": (0, 1),
        "z": (2, 3)}
    spec = CircuitSpec(space=sp, anchor=a, vocab=["t"], embed=embed, unembed=unembed, layers=[L0, L1, L2])
    y_first = sp["y"].start
    allocate(spec)
    assert sp["z"].start == sp["y"].start == y_first  # z reuses y's first channel
    assert sp.size == 5 + 2 + 2 + 2 + 3  # anchor, ballast, tok, x.lo, x.hi, y (z inside y)
    assert (sp["y"].live, sp["z"].live, sp["x.hi"].live) == ((0, 1), (2, None), (0, None))
    # every form went through the same map: L2's neuron now writes z's new channel, reads x.lo's
    assert L2.neurons[0].down == {sp["z"][0]: 1.0} and L2.neurons[0].gate == {sp["x.lo"][0]: 1.0}
    assert unembed is not spec.unembed and spec.unembed[0] == {sp["x.lo"][1]: 1.0, sp["z"][0]: 1.0}
    assert [g.name for g in sp.alive(1) if y_first in g.indices] == ["y"]
    assert [g.name for g in sp.alive(2) if y_first in g.indices] == ["z"]
