"""ROM load and fetch (compiler/circuit/rom.py) in the stock transformers model.

The prompt of a real sample writes the ROM; an ``EXEC.b.0.15`` token per block then
fetches block b. Expected field bytes come from the protocol's ROM encoding.
"""

import pytest
import torch

from compiler.circuit.checkpoint import build_model
from circuit_support import mini_spec
from compiler.circuit.rom import build_rom_decode, build_rom_slot
from compiler.circuit.protocol import FIELDS, SLOTS_PER_BLOCK, Vocab, encode_rom, prompt_tokens
from compiler.kernel_compiler import compile_file
from compiler.machine.config import DEFAULT, SEED
from engine.launch import build_launch, parse_assignments, read_header


SMALL = SEED
"""The seed's machine (32 ROM blocks)."""
BIG = DEFAULT
"""The default checkpoint's machine (60 ROM blocks): switch_case's expanded divisions need 34 blocks."""


def _rom_layers(blocks):
    def build(space, layers):
        for s in range(SLOTS_PER_BLOCK):
            build_rom_slot(layers[1], space, s, blocks)
            build_rom_decode(layers[1], space, s)
    return build


@pytest.fixture(scope="module")
def specs():
    return {SMALL: mini_spec(1, _rom_layers(SMALL.rom_blocks), cfg=SMALL), BIG: mini_spec(1, _rom_layers(BIG.rom_blocks), cfg=BIG)}


@pytest.mark.parametrize("path,dtype,cfg", [("samples/dot.cu", torch.float32, SMALL),
                                            ("samples/byte_pack.cu", torch.float32, SMALL),
                                            ("samples/dot.cu", torch.bfloat16, SMALL),
                                            ("samples/switch_case.cu", torch.float32, BIG)])
def test_exec_fetches_every_field_of_its_block(specs, path, dtype, cfg):
    spec = specs[cfg]
    prog = compile_file(path, cfg=cfg)
    if cfg is BIG:
        assert len(prog.blocks) > 32, "the test wants blocks beyond a 32-block ROM"
    h = read_header(path)
    launch = build_launch(prog, h.grid, h.block, parse_assignments(h.args), cfg)
    toks = prompt_tokens(prog, launch, cfg)
    order = list(range(len(prog.blocks)))[::-1]  # fetch in reverse, then block 0 again
    toks += [f"EXEC.{b}.0.15" for b in order + [0]]
    ids = torch.tensor([Vocab(cfg).encode(toks)])
    with torch.no_grad():
        hs = build_model(spec, dtype)(input_ids=ids, output_hidden_states=True).hidden_states[2][0].double()
    rom = encode_rom(prog, cfg)
    worst = 1.0
    for pos, b in zip(range(len(toks) - len(order) - 1, len(toks)), order + [0]):
        for s in range(SLOTS_PER_BLOCK):
            g = spec.space[f"rom.bits.{s}"]
            x = hs[pos, g.start:g.start + len(g)]
            worst = min(worst, float((x - x.round()).abs().max()))
            bits = x.round().long().tolist()
            got = {f: sum(bits[8 * i + k] << k for k in range(8)) for i, f in enumerate(FIELDS)}
            want = {f: rom.get((b, s), {}).get(f, 0) for f in FIELDS}
            assert got == want, f"block {b} slot {s}"
    assert worst < 0.05, f"decoded bits are {worst:.3g} away from 0/1"
