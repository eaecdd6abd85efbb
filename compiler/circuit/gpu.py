"""The GPU circuit: assembles the stages into one CircuitSpec (the single source of truth).

Stages built so far (docs/circuit.md has the full plan and what is missing):

* layer 0 — latch (``latch.py``): the address of the current record.

Later stages (ROM fetch, register and memory files, the execute slots, writeback
staging and the scheduler) are added here in pipeline order.
"""

from __future__ import annotations

from compiler.circuit.checkpoint import CircuitSpec
from compiler.circuit.latch import build_latch
from compiler.circuit.layers import LayerSpec
from compiler.circuit.protocol import SLOTS_PER_BLOCK, Vocab
from compiler.circuit.rom import build_rom_decode, build_rom_slot
from compiler.circuit.space import Space
from compiler.circuit.tokens import add_token_groups, all_embeddings
from compiler.machine.config import DEFAULT, MachineConfig

DK = 128  # state rows per head: enough for the 126 memory words
DV = 64   # value columns per head: four ROM fields as bit pairs, or two bytes as nibble one-hots


def build_spec(cfg: MachineConfig = DEFAULT) -> CircuitSpec:
    vocab = Vocab(cfg)
    space = Space("residual")
    add_token_groups(space, cfg.lanes)
    latch = build_latch(space, 0)
    fetch = LayerSpec(1, "fetch", "ROM: every slot of the EXEC's block, decoded to clean bits")
    for s in range(SLOTS_PER_BLOCK):
        build_rom_slot(fetch, space, s, cfg.rom_blocks)
        build_rom_decode(fetch, space, s)
    layers = [latch, fetch]
    return CircuitSpec(space=space, anchor=space["anchor"].start, vocab=vocab.words,
                       embed=all_embeddings(space, vocab), unembed={}, layers=layers, dk=DK, dv=DV,
                       heads_per_key=8, meta={"machine": cfg.__class__.__name__})
