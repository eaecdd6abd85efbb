"""Word files (compiler/circuit/words.py): registers, memory and constants in DeltaNet state.

A prompt of random R/M/K records (short and long values) is followed by probe tokens:
an address token with no payload reads back its own row, so the value read must be the
last one written there (tracked here in a plain dict) or 0.
"""

import random

import pytest
import torch

from compiler.circuit.checkpoint import CircuitSpec, build_model
from compiler.circuit.latch import build_latch
from compiler.circuit.layers import GAIN, LayerSpec, lin
from compiler.circuit.protocol import Vocab, value_tokens
from compiler.circuit.space import Space
from compiler.circuit.tokens import add_token_groups, all_embeddings
from compiler.circuit.words import value_group, word_file_keys, word_head


def _spec():
    vocab = Vocab()
    space = Space("residual")
    add_token_groups(space, 4)
    L0 = build_latch(space, 0)
    L1 = LayerSpec(1, "test", "word files read back at their own address tokens")
    out = value_group(space, "probe", "value read by the probe", "test", lanes=4)
    a = space["anchor"].start
    def probe(keys):  # query = the key: an address token reads its own row
        return {r: (0, {i: GAIN * w for i, w in lin(form, (a, -0.5)).items()}) for r, form in keys.items()}

    for lane in range(4):   # register file of lane `lane`, queried by the latched R address of that lane
        keys = word_file_keys(space, "reg", range(1, 16), lane)
        L1.heads.append(word_head(space, f"reg.{lane}", keys, probe(keys), out, lane))
    for name, n in (("mem", 126), ("const", 30)):
        keys = word_file_keys(space, name, range(n))
        L1.heads.append(word_head(space, name, keys, probe(keys), out, 0))
    return CircuitSpec(space=space, anchor=a, vocab=vocab.words, embed=all_embeddings(space, vocab),
                       unembed={}, layers=[L0, L1], dk=128, dv=64, heads_per_key=2), out


def _program(seed):
    rng = random.Random(seed)
    toks, probes, state = ["<bos>"], [], {}
    interesting = [0, 1, -1, 127, -128, 128, -129, 0x7FFFFFFF, -0x80000000, 0x12345678, 255, 256]
    for _ in range(120):
        kind = rng.choice("RMK")
        addr = {"R": lambda: f"R.{rng.randrange(4)}.{rng.randrange(1, 16)}",
                "M": lambda: f"M.{rng.randrange(126)}", "K": lambda: f"K.{rng.randrange(30)}"}[kind]()
        if rng.random() < 0.35:  # probe: the address alone reads the row
            probes.append((len(toks), addr, state.get(addr, 0)))
            toks.append(addr)
        else:
            v = rng.choice(interesting) if rng.random() < 0.3 else rng.randrange(-2**31, 2**31)
            if rng.random() < 0.5:
                v = rng.randrange(-128, 128)
            toks += [addr] + value_tokens(v)
            state[addr] = v & 0xFFFFFFFF
    return toks, probes


@pytest.mark.parametrize("dtype", [torch.float32, torch.bfloat16])
def test_word_files_read_back_the_last_write(dtype):
    spec, out = _spec()
    model = build_model(spec, dtype)
    worst = 0.0
    for seed in range(3):
        toks, probes = _program(seed)
        ids = torch.tensor([Vocab().encode(toks)])
        with torch.no_grad():
            h = model(input_ids=ids, output_hidden_states=True).hidden_states[2][0].double()
        for pos, addr, want in probes:
            lane = int(addr.split(".")[1]) if addr[0] == "R" else 0
            nib = [float(h[pos, out[(lane, i)]]) for i in range(8)]
            worst = max(worst, max(abs(x - round(x)) for x in nib))
            got = sum(int(round(x)) << (4 * i) for i, x in enumerate(nib))
            assert got == want, f"seed {seed} token {pos} {addr}: read {got:#x}, want {want:#x}"
    assert worst < 0.1, f"nibbles {worst:.3g} away from integers"
