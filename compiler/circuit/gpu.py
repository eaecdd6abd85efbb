"""The GPU circuit: assembles the stages into one CircuitSpec (the single source of truth).

Stages built so far (docs/circuit.md has the full plan and what is missing):

* layer 0 — latch (``latch.py``): the address of the current record.

Later stages (ROM fetch, register and memory files, the execute slots, writeback
staging and the scheduler) are added here in pipeline order.
"""

from __future__ import annotations

from compiler.circuit.checkpoint import CircuitSpec
from compiler.circuit.latch import build_latch
from compiler.circuit.protocol import Vocab
from compiler.circuit.space import Space
from compiler.circuit.tokens import add_token_groups, all_embeddings
from compiler.machine.config import DEFAULT, MachineConfig

DK = 128  # state rows per head: enough for the 126 memory words
DV = 32   # value columns per head: two nibble one-hots, or a few small one-hots


def build_spec(cfg: MachineConfig = DEFAULT) -> CircuitSpec:
    vocab = Vocab(cfg)
    space = Space("residual")
    add_token_groups(space, cfg.lanes)
    layers = [build_latch(space, 0)]
    return CircuitSpec(space=space, anchor=space["anchor"].start, vocab=vocab.words,
                       embed=all_embeddings(space, vocab), unembed={}, layers=layers, dk=DK, dv=DV,
                       heads_per_key=2, meta={"machine": cfg.__class__.__name__})
