"""Small circuit specs for stage tests: the token groups, the latch, and whatever a test adds."""

from __future__ import annotations

from compiler.circuit.checkpoint import CircuitSpec
from compiler.circuit.latch import build_latch
from compiler.circuit.layers import LayerSpec
from compiler.circuit.protocol import Vocab
from compiler.circuit.space import Space
from compiler.circuit.tokens import add_token_groups, all_embeddings
from compiler.machine.config import DEFAULT, MachineConfig


def mini_spec(extra_layers: int = 0, build=None, pad_pow4: bool = True,
              cfg: MachineConfig = DEFAULT) -> CircuitSpec:
    """Layer 0 = the latch; ``build(space, layers)`` fills ``extra_layers`` more layers."""
    vocab = Vocab(cfg)
    space = Space("residual")
    add_token_groups(space, 4, cfg.rom_blocks)
    layers = [build_latch(space, 0)] + [LayerSpec(i, "test", "") for i in range(1, 1 + extra_layers)]
    if build is not None:
        build(space, layers)
    return CircuitSpec(space=space, anchor=space["anchor"].start, vocab=vocab.words,
                       embed=all_embeddings(space, vocab), unembed={}, layers=layers, dk=128, dv=64,
                       heads_per_key=8, pad_pow4=pad_pow4)
