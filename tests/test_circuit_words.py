"""Word files (compiler/circuit/words.py): registers, memory and constants in DeltaNet state.

A prompt of random R/M/K records (short and long values) is followed by probe tokens:
an address token with no payload reads back its own row (its query is its own write key),
so the value read must be the last one written there (tracked here in a plain dict) or 0.
"""

import random

import pytest
import torch

from compiler.circuit.checkpoint import CircuitSpec, build_model
from compiler.circuit.latch import build_latch
from compiler.circuit.layers import LayerSpec
from compiler.circuit.protocol import Vocab, constant_names, lane_value_tokens, value_tokens
from compiler.circuit.space import Space
from compiler.circuit.tokens import add_token_groups, all_embeddings, const_row
from compiler.machine.config import DEFAULT as CFG
from compiler.circuit.words import (constants_file, memory_file, register_file, value_group, word_keys)

CONSTS = constant_names()
CONST_ROWS = {r: r for r in sorted({const_row(n) for n in CONSTS})}


def _spec():
    vocab = Vocab(CFG)
    space = Space("residual")
    add_token_groups(space, CFG.lanes, CFG.rom_blocks)
    L0 = build_latch(space, 0)
    L1 = LayerSpec(1, "test", "word files read back at their own address tokens")
    out = {n: value_group(space, f"probe.{n}", "value read by the probe", "test", lanes=4)
           for n in ("reg", "mem", "const")}
    a = space["anchor"].start
    L1.heads.append(register_file(space, "reg", 16, 4, word_keys(space, "reg", {r: r for r in range(1, 16)}),
                                  out["reg"]))  # warp 0: the program starts with EXEC.0.0.15
    L1.heads.append(memory_file(space, "mem", 126, word_keys(space, "mem", {w: w for w in range(126)}), out["mem"]))
    L1.heads.append(constants_file(space, "const", CONST_ROWS, 4, word_keys(space, "const", CONST_ROWS),
                                   out["const"]))
    return CircuitSpec(space=space, anchor=a, vocab=vocab.words, embed=all_embeddings(space, vocab),
                       unembed={}, layers=[L0, L1], dk=128, dv=64, heads_per_key=8), out


def _program(seed):
    rng = random.Random(seed)
    toks, probes = ["<bos>", "EXEC.0.0.15"], []  # the step context names warp 0 (register rows per warp)
    regs, mem, const = {}, {}, {}
    interesting = [0, 1, -1, 127, -128, 128, -129, 0x7FFFFFFF, -0x80000000, 0x12345678, 255, 256]
    for _ in range(150):
        kind = rng.choice("RMK")
        if kind == "R":
            lane, r = rng.randrange(4), rng.randrange(1, 16)
            addr = f"R.{r}"  # the lane comes with the value (S.l.x, B0.l.x)
        elif kind == "M":
            w = rng.randrange(126)
            addr = f"M.{w}"
        else:
            i = rng.randrange(len(CONSTS))
            addr = f"K.{i}"
        if rng.random() < 0.35:  # probe: the address alone reads the row
            if kind == "R":
                want = {lane: regs.get((lane, r), 0)}
            elif kind == "M":
                want = {0: mem.get(w, 0)}
            else:  # a per-lane constant was written to its lane only, the others to all lanes
                want = {lane: const.get((const_row(CONSTS[i]), lane), 0) for lane in range(4)}
            probes.append((len(toks), kind, want))
            toks.append(addr)
            continue
        v = rng.choice(interesting) if rng.random() < 0.3 else rng.randrange(-2**31, 2**31)
        if rng.random() < 0.5:
            v = rng.randrange(-128, 128)
        toks += [addr] + (lane_value_tokens(lane, v) if kind == "R" else value_tokens(v))
        v &= 0xFFFFFFFF
        if kind == "R":
            regs[(lane, r)] = v
        elif kind == "M":
            mem[w] = v
        else:
            name = CONSTS[i]
            lanes = ([int(name.split(".")[2])] if name.startswith(("tid.", "present.", "lbase."))
                     else [int(name.split(".")[1])] if name.startswith("warp.") else range(4))
            for lane in lanes:
                const[(const_row(name), lane)] = v
    return toks, probes


@pytest.mark.parametrize("dtype", [torch.float32, torch.bfloat16])
def test_word_files_read_back_the_last_write(dtype):
    spec, out = _spec()
    model = build_model(spec, dtype)
    worst, checked = 0.0, 0
    for seed in range(3):
        toks, probes = _program(seed)
        ids = torch.tensor([Vocab(CFG).encode(toks)])
        with torch.no_grad():
            h = model(input_ids=ids, output_hidden_states=True).hidden_states[2][0].double()
        for pos, kind, want in probes:
            g = out[{"R": "reg", "M": "mem", "K": "const"}[kind]]
            for lane, v in want.items():
                nib = [float(h[pos, g[(lane, i)]]) for i in range(8)]
                worst = max(worst, max(abs(x - round(x)) for x in nib))
                got = sum(int(round(x)) << (4 * i) for i, x in enumerate(nib))
                assert got == v, f"seed {seed} token {pos} {toks[pos]} lane {lane}: read {got:#x}, want {v:#x}"
                checked += 1
    assert checked > 100
    assert worst < 0.1, f"nibbles {worst:.3g} away from integers"
