"""The circuit digest (compiler/circuit/digest.py) moves with any weight, and only with weights."""

import dataclasses

from compiler.circuit.digest import layer_digests, machine, spec_digest
from compiler.circuit.gpu import build_spec


def test_digest_is_stable_and_sees_one_changed_weight():
    cfg = machine("3:8")
    a, b = build_spec(cfg), build_spec(cfg)
    assert spec_digest(a) == spec_digest(b)
    # one down-projection entry of one neuron in the middle layer, changed by one float32 ulp-ish step
    L = b.layers[len(b.layers) // 2]
    n = L.neurons[len(L.neurons) // 2]
    k = next(iter(n.down))
    n.down[k] = n.down[k] * (1 + 2 ** -20)
    assert spec_digest(a) != spec_digest(b)
    changed = [i for i, (x, y) in enumerate(zip(layer_digests(a), layer_digests(b))) if x != y]
    assert changed == [L.index]


def test_digest_sees_neuron_order_and_machine():
    cfg = machine("3:8")
    a, b = build_spec(cfg), build_spec(cfg)
    L = b.layers[1]
    L.neurons[0], L.neurons[1] = L.neurons[1], L.neurons[0]
    assert L.neurons[0] != L.neurons[1]
    assert spec_digest(a) != spec_digest(b)
    assert spec_digest(build_spec(dataclasses.replace(cfg, rom_blocks=9))) != spec_digest(a)
