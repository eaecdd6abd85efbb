"""Layer 0 of the circuit (the latch), run by the stock transformers Qwen3.5 model.

Expected latched addresses come from the token list itself (the last address token at
or before each position), computed here in plain Python.
"""

import subprocess
import sys

import pytest
import torch

from compiler.circuit.checkpoint import build_model, save_checkpoint
from circuit_support import mini_spec
from compiler.circuit.protocol import Vocab, constant_names, prompt_tokens, trace_tokens
from compiler.circuit.tokens import const_row
from compiler.kernel_compiler import compile_file
from engine.interpreter import Interpreter
from engine.launch import build_launch, parse_assignments, read_header


CONSTS = constant_names()


def _prompt(path="samples/dot.cu"):
    prog = compile_file(path)
    h = read_header(path)
    return prompt_tokens(prog, build_launch(prog, h.grid, h.block, parse_assignments(h.args)))


def _launch_tokens(path="samples/dot.cu"):
    """Prompt and trace: the trace's R.r records and lane values move the latch too."""
    prog = compile_file(path)
    h = read_header(path)
    launch = build_launch(prog, h.grid, h.block, parse_assignments(h.args))
    return prompt_tokens(prog, launch) + trace_tokens(Interpreter(prog, launch).run().trace)


def _expected(tokens):
    """(kind, slot, lane, index) of the last address token at or before each position; the lane
    is the last lane value's (S.l.x, B0.l.x) where one came after the address."""
    out, cur = [], None
    for t in tokens:
        kind, _, rest = t.partition(".")
        if kind in ("S", "B0") and rest.count(".") == 1:
            cur = (cur[0], cur[1], int(rest.split(".")[0]), cur[3])
        elif kind in ("I", "R", "M", "K"):
            p = [int(x) for x in rest.split(".")]
            if kind == "I":
                cur = ("I", p[1], "-", p[0])
            elif kind == "R":
                cur = ("R", "-", "-", p[0])
            elif kind == "K":  # K tokens address the constants file row; per-lane constants name their lane
                name = CONSTS[p[0]]
                lane = (int(name.split(".")[2]) if name.startswith(("tid.", "present."))
                        else int(name.split(".")[1]) if name.startswith("warp.") else "-")
                cur = ("K", "-", lane, const_row(name))
            elif len(p) == 3:  # M.w.l.k: a trace's memory write names its lane and store
                cur = ("M", p[2], p[1], p[0])
            else:
                cur = (kind, "-", "-", p[0])
        out.append(cur)
    return out


def _decode(spec, h):
    """Nearest codeword per latch group; returns values and the smallest margin seen
    (top entry minus runner-up, and closeness of the top entry to 1)."""
    vals, margin = [], float("inf")
    for name in ("latch.kind", "latch.slot", "latch.lane", "latch.hi", "latch.lo"):
        g = spec.space[name]
        x = h[:, g.start:g.start + len(g)].double()
        top2 = x.topk(2, dim=1).values
        margin = min(margin, float((top2[:, 0] - top2[:, 1]).min()), float((1 - (top2[:, 0] - 1).abs()).min()))
        vals.append([g.values[i] for i in x.argmax(1).tolist()])
    rows = []
    for kind, slot, lane, hi, lo in zip(*vals):
        rows.append((kind, slot, lane, 16 * hi + lo))
    return rows, margin


@pytest.fixture(scope="module")
def spec():
    return mini_spec()


@pytest.mark.parametrize("dtype", [torch.float32, torch.bfloat16])
def test_latch_holds_the_last_address(spec, dtype):
    toks = _launch_tokens()
    assert any(t.startswith("S.") and t.count(".") == 2 for t in toks)  # lane values are in the test
    ids = torch.tensor([Vocab().encode(toks)])
    model = build_model(spec, dtype)
    with torch.no_grad():
        h = model(input_ids=ids, output_hidden_states=True).hidden_states[1][0]
    want = _expected(toks)
    first = next(i for i, w in enumerate(want) if w is not None)  # <bos> comes before any address
    got, margin = _decode(spec, h[first:])
    got = [None] * first + got
    assert got[first:] == want[first:]
    assert margin > 0.9, f"latch codes lost their margin ({margin:.3g})"


def test_checkpoint_loads_in_a_fresh_process_with_plain_transformers(spec, tmp_path):
    """save_checkpoint → a new Python process → AutoModelForCausalLM / AutoTokenizer.from_pretrained
    gives the same hidden states as the in-memory model (no custom code anywhere)."""
    out = save_checkpoint(spec, tmp_path / "ckpt")
    toks = _prompt()
    code = f"""
import sys, torch
from transformers import AutoModelForCausalLM, AutoTokenizer
tok = AutoTokenizer.from_pretrained({str(out)!r})
m = AutoModelForCausalLM.from_pretrained({str(out)!r}).eval()
ids = tok({" ".join(toks)!r}, add_special_tokens=False, return_tensors="pt")["input_ids"]
with torch.no_grad():
    h = m(input_ids=ids, output_hidden_states=True).hidden_states[1]
torch.save((ids, h), sys.argv[1])
print(type(m).__name__, type(tok.backend_tokenizer.model).__name__, len(tok))
"""
    res = subprocess.run([sys.executable, "-c", code, str(tmp_path / "h.pt")], capture_output=True, text=True,
                         timeout=300, env={"HF_HUB_OFFLINE": "1", "PATH": "/usr/bin:/bin"})
    assert res.returncode == 0, res.stderr[-2000:]
    # the word-level circuit vocabulary, not Qwen's BPE tokenizer (docs/qwen35/README.md: the trap)
    assert res.stdout.split() == ["Qwen3_5ForCausalLM", "WordLevel", str(len(Vocab()))]
    ids, h = torch.load(tmp_path / "h.pt")
    assert ids[0].tolist() == Vocab().encode(toks)
    with torch.no_grad():
        h0 = build_model(spec, torch.float32)(input_ids=ids, output_hidden_states=True).hidden_states[1]
    assert torch.equal(h, h0)
