"""A digest of every weight the circuit compiler decides, per layer, without writing a checkpoint.

Why: a refactor of the circuit compiler that should not change the model can be checked in
seconds instead of by re-running hours of replays — run this before and after and compare
(every neuron's gate/up/down entries, every head, the embeddings, the LM head, the vocabulary
and the model config enter it; the order neurons are listed in does count, as it does in the
checkpoint). The checkpoint's own directory name (``build.fingerprint``) hashes the circuit
sources instead, so that any edit rebuilds; a digest that did not move says the edit left the
weights alone.

Run: python -m compiler.circuit.digest [N:B]   (N instructions per block, B ROM blocks;
default: the default checkpoint's machine, ``compiler.machine.config.DEFAULT``)
"""

from __future__ import annotations

import hashlib
import json
import sys

from compiler.machine.config import DEFAULT, parse_machine
from compiler.circuit.checkpoint import CircuitSpec
from compiler.circuit.layers import Lin
from compiler.machine.config import MachineConfig


def _form(d: Lin) -> bytes:
    return repr(sorted((int(k), float(v)) for k, v in d.items())).encode()


def layer_digests(spec: CircuitSpec) -> list[str]:
    """One hex digest per layer: its neurons in order, then its heads."""
    out = []
    for L in spec.layers:
        h = hashlib.sha256()
        for n in L.neurons:
            h.update(_form(n.gate) + b"|" + _form(n.up) + b"|" + _form(n.down) + b";")
        h.update(repr(L.heads).encode())
        out.append(h.hexdigest())
    return out


def spec_digest(spec: CircuitSpec) -> str:
    """The digest of the whole circuit: every layer, embeddings, LM head, vocabulary, config."""
    h = hashlib.sha256()
    for d in layer_digests(spec):
        h.update(d.encode())
    for table in (spec.embed, spec.unembed):
        for t in sorted(table):
            h.update(str(t).encode() + _form(table[t]))
    h.update(repr(spec.vocab).encode())
    h.update(json.dumps(spec.config_kwargs(), sort_keys=True, default=str).encode())
    return h.hexdigest()


def machine(arg: str | None) -> MachineConfig:
    return parse_machine(arg) if arg else DEFAULT


def main(argv: list[str]) -> None:
    if any(a in ("-h", "--help") for a in argv):
        print(__doc__)
        return
    from compiler.circuit.gpu import build_spec

    spec = build_spec(machine(argv[0] if argv else None))
    for L, d in zip(spec.layers, layer_digests(spec)):
        print(f"layer {L.index:2d} {L.stage:10s} {len(L.neurons):5d} neurons  {d[:16]}")
    print(f"circuit {spec_digest(spec)[:16]}  (hidden {spec.hidden})")


if __name__ == "__main__":
    main(sys.argv[1:])
