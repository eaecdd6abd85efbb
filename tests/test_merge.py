"""The GPU inside a Qwen3.5 base (compiler/merge.py, issue 26), on the stand-in base
(engine/standin.py: trained, so its distributions are peaked and KL means something).

The merged checkpoint is built once per session (``conftest.merged_standin``: the 3-instruction,
32-block machine) from the stand-in's *multimodal* layout (the harder of the two: ``text_config``,
``model.language_model.`` tensor names). The expected numbers are computed here with plain
``transformers`` and float64 arithmetic, independently of ``engine/merge_check.py``; launches are
checked token by token against the interpreter."""

from __future__ import annotations

import json
import math
import subprocess
import sys

import pytest
import torch

from conftest import MERGE_MACHINE as MACHINE, ROOT
from compiler import merge
from compiler.circuit.checkpoint import Shape

pytestmark = pytest.mark.model



# --- the rules, without weights -----------------------------------------------------------------

def _base_cfg(**kw) -> dict:
    cfg = dict(hidden_size=128, intermediate_size=384, linear_num_key_heads=2, linear_num_value_heads=4,
               linear_key_head_dim=32, linear_value_head_dim=32, linear_conv_kernel_dim=4, rms_norm_eps=1e-6,
               layer_types=["linear_attention", "full_attention"], vocab_size=1000)
    cfg.update(kw)
    return cfg


def test_norms_compensate_every_norm_kind():
    """Plain-Python RMS norms of a random vector: a base norm and the merged one (wider residual
    with the flag and the gain; padded DeltaNet head with the smaller query scale) agree."""
    b = _base_cfg()
    s = Shape(nk=8, m=2, dk=128, dv=64, conv=4, intermediate=512)
    hidden = 1937
    n = merge.Norms.of(b, s, hidden)
    assert n.kappa == 32 * 32 / (128 * 64) and n.merged_eps == n.kappa * 1e-6
    assert n.alpha ** 2 >= n.merged_eps * hidden and math.log2(n.gain) == int(math.log2(n.gain))
    g = torch.Generator().manual_seed(0)
    for scale in (1e-4, 1e-3, 1.0):  # small values are where eps matters
        x = (torch.randn(b["hidden_size"], generator=g, dtype=torch.float64) * scale)
        w = torch.randn(b["hidden_size"], generator=g, dtype=torch.float64) * 0.1
        want = x / torch.sqrt(x.pow(2).mean() + 1e-6) * (1 + w)
        # merged residual: the base's channels times gain, the flag, zeros elsewhere
        wide = torch.zeros(hidden, dtype=torch.float64)
        wide[-b["hidden_size"]:] = x * n.gain
        wide[0] = n.alpha
        got = (wide / torch.sqrt(wide.pow(2).mean() + n.merged_eps))[-b["hidden_size"]:] * ((1 + w) * n.scale)
        assert torch.allclose(got, want, rtol=1e-12, atol=0)
        # gated DeltaNet norm: core output scaled by sqrt(dk_b/dk), dv - dv_b zero columns
        o = torch.randn(32, generator=g, dtype=torch.float64) * scale
        wo = torch.randn(32, generator=g, dtype=torch.float64)
        want = o / torch.sqrt(o.pow(2).mean() + 1e-6) * wo
        pad = torch.zeros(64, dtype=torch.float64)
        pad[:32] = o * math.sqrt(32 / 128)
        got = (pad / torch.sqrt(pad.pow(2).mean() + n.merged_eps))[:32] * (wo * math.sqrt(32 / 64))
        assert torch.allclose(got, want, rtol=1e-12, atol=0)


def test_merged_shape_keeps_the_base_and_fits_the_circuit():
    from compiler.circuit.digest import machine
    from compiler.circuit.gpu import build_spec

    spec = build_spec(machine(MACHINE))
    b = _base_cfg()
    for cfg in (b, {"text_config": b, "model_type": "qwen3_5"}):  # text-only and multimodal configs
        kw = merge.merged_config(spec, cfg)
        s = merge.merged_shape(spec, cfg)
        need = spec.needs(2)
        assert (s.nk, s.dk, s.dv, s.conv) >= (2, 32, 32, 4)
        assert s.nk >= need.nk and s.dk >= need.dk and s.dv >= need.dv and s.intermediate >= 384
        assert kw["layer_types"][-2:] == b["layer_types"] and kw["vocab_size"] == 1000 + len(spec.vocab)
        assert kw["hidden_size"] == merge.circuit_channels(spec) + 1 + 128
        assert kw["linear_num_value_heads"] == 2 * kw["linear_num_key_heads"]


def test_circuit_tokens_land_on_their_rows_when_the_tokenizer_is_smaller(tmp_path):
    """Qwen3.5's tokenizer has 248,077 tokens for 248,320 rows: ``tokenizers`` numbers added
    tokens after the last one it has, so the merge fills the rows between (here a 6-token
    tokenizer for 10 rows) and the circuit's tokens get ids 10, 11, 12."""
    from tokenizers import Tokenizer, models

    base, out = tmp_path / "base", tmp_path / "out"
    base.mkdir(), out.mkdir()
    Tokenizer(models.WordLevel(vocab={w: i for i, w in enumerate("abcdef")}, unk_token="a")).save(
        str(base / "tokenizer.json"))
    merge._write_tokenizer(base, out, ["END", "GO", "<bos>"], 10)
    got = Tokenizer.from_file(str(out / "tokenizer.json"))
    assert [got.token_to_id(merge.TOKEN_FORMAT.format(n)) for n in ("END", "GO", "<bos>")] == [10, 11, 12]
    assert got.token_to_id("f") == 5 and got.id_to_token(6) == merge.UNUSED_FORMAT.format(6)
    with pytest.raises(ValueError, match="more than the model's vocab_size"):
        merge._write_tokenizer(base, out, ["END"], 4)


# --- the merged stand-in ------------------------------------------------------------------------

@pytest.fixture(scope="module")
def merged(merged_standin):
    return merged_standin


def _held_out_text() -> str:
    from engine import standin

    return "\n".join(standin.split_documents(standin.corpus_documents())[1])


@torch.no_grad()
def _logits(model, ids: list[int]) -> torch.Tensor:
    return model(torch.tensor([ids])).logits[0].double()


def test_merged_loads_with_plain_transformers_and_keeps_the_base_text(merged):
    """Plain AutoModelForCausalLM / AutoTokenizer: the base's ids unchanged, the circuit's tokens
    added after them; on held-out text KL(base || merged) and the circuit-token mass are tiny."""
    from transformers import AutoModelForCausalLM, AutoTokenizer

    base_dir, out = merged
    tb, tm = AutoTokenizer.from_pretrained(base_dir), AutoTokenizer.from_pretrained(out)
    text = _held_out_text()
    ids = tb(text)["input_ids"][:400]
    assert tm(text)["input_ids"][:400] == ids
    layout = json.loads((out / "qgpu_layout.json").read_text())
    vb = layout["merge"]["base_vocab"]
    from app.debugger.layout import base_layers, stage_layers

    n = layout["merge"]["circuit_layers"]
    assert base_layers(layout) == list(range(n, n + 4))  # the debugger's pipeline pane: the stand-in's 4
    assert all(stage_layers(layout)[st] and max(stage_layers(layout)[st]) < n for st in ("fetch", "writeback"))
    names = [merge.TOKEN_FORMAT.format(t) for t in ("END", "GO", "EXEC.0.0.1")]
    got = tm.convert_tokens_to_ids(names)
    assert all(i >= vb for i in got) and len(set(got)) == 3
    assert tm.decode(got) == "".join(names)  # special tokens survive a round trip

    base = AutoModelForCausalLM.from_pretrained(base_dir, dtype=torch.float32).eval()
    lb = _logits(base, ids)
    del base
    m = AutoModelForCausalLM.from_pretrained(out, dtype=torch.float32).eval()
    lm = _logits(m, ids)
    p = lb.log_softmax(-1)
    q = lm.log_softmax(-1)
    kl = (p.exp() * (p - q[:, :vb])).sum(-1)
    mass = q[:, vb:].exp().sum(-1)
    assert float(kl.mean()) <= 1e-6 and float(mass.max()) <= 1e-6, (float(kl.mean()), float(mass.max()))
    assert bool((lb.argmax(-1) == lm.argmax(-1)).all())
    # the stand-in is peaked, so this KL is not trivially small
    assert float(p.exp().amax(-1).mean()) > 0.2

    # qgpu check-merge agrees with this computation (fast engine; after-launch numbers skipped)
    r = subprocess.run([sys.executable, "-m", "app.cli", "check-merge", str(base_dir), str(out), "--no-launch",
                        "--engine", "fast", "--json", "--max-tokens", "400", "--text", str(_text_file(text))],
                       cwd=ROOT, capture_output=True, text=True)
    assert r.returncode == 0, r.stderr[-2000:]
    rep = json.loads(r.stdout)
    assert rep["ok"] and rep["text"]["positions"] == 400
    assert rep["text"]["kl_mean"] <= 1e-6 and rep["text"]["greedy_agreement"] == 1.0


def _text_file(text: str):
    import tempfile
    from pathlib import Path

    f = Path(tempfile.mkdtemp()) / "held_out.txt"
    f.write_text(text, encoding="utf-8")
    return f


def _launch(gpu, name: str):
    from app.launching import launch_for
    from compiler.circuit.protocol import trace_tokens
    from engine.interpreter import Interpreter

    k = launch_for(str(ROOT / "samples" / name), None, None, None, [], gpu.machine)
    res = Interpreter(k.program, k.launch, gpu.machine).run()
    return k, trace_tokens(res.trace), res


def _generate(run, want: list[str]) -> None:
    while not run.done and len(run.generated) < len(want):
        run.step()
    assert run.generated == want


@pytest.mark.parametrize("dtype", ["float32", "bfloat16"])
def test_launch_after_text_is_exact(merged, dtype):
    """Text, then a launch: it generates the interpreter's trace token for token and leaves its
    memory, with clean codes."""
    from engine.model import EXIT, GpuModel

    gpu = GpuModel(merged[1], dtype)
    k, want, res = _launch(gpu, "vector_add.cu")
    run = gpu.start(k.program, k.launch, prefix=gpu.tokenizer("The first launch follows.")["input_ids"])
    _generate(run, want)
    words = run.memory()
    assert [w.value for w in words] == [v & 0xFFFFFFFF for v in res.memory] and all(w.ok for w in words)
    # the pc and barrier-tag files decode in the placed shape (the debugger's warps pane)
    pcs, cfg = run.pcs(), gpu.machine
    assert len(pcs) == cfg.max_warps * cfg.lanes and len(run.waiting()) == len(pcs)
    assert {w.value for w in pcs.values() if w.written} == {EXIT}


@pytest.mark.parametrize("between", ["Text between the launches.", pytest.param("", marks=pytest.mark.full)])
def test_second_launch_after_text(merged, between):
    """Launch, text, another kernel's launch (and two launches back to back): text leaves the
    machine's state exactly as the launch left it, and ``<bos>`` empties the machine, so the second
    launch (whose prompt writes only non-zero ROM fields and words) is exact as if it ran alone."""
    from engine.model import GpuModel

    gpu = GpuModel(merged[1])
    k1, want1, _ = _launch(gpu, "vector_add.cu")
    run1 = gpu.start(k1.program, k1.launch)
    _generate(run1, want1)
    text = gpu.tokenizer(between)["input_ids"] if between else []
    if text:  # text after a launch writes nothing into the circuit's state
        layers = range(gpu.layout["merge"]["circuit_layers"])
        gpu.exe.forward(torch.tensor([run1.pending]), run1.cache)  # END, as the next prompt would feed it
        before = [gpu.exe.recurrent_state(run1.cache, i).clone() for i in layers]
        gpu.exe.forward(torch.tensor([text[:-1]]), run1.cache)
        assert all(torch.equal(gpu.exe.recurrent_state(run1.cache, i), s) for i, s in zip(layers, before))
        run1._next_input = torch.tensor([text[-1:]])
    k2, want2, res2 = _launch(gpu, "popc_clz_brev.cu")
    run2 = gpu.start(k2.program, k2.launch, after=run1)
    _generate(run2, want2)
    words = run2.memory()
    assert [w.value for w in words] == [v & 0xFFFFFFFF for v in res2.memory] and all(w.ok for w in words)


def test_build_base_needs_out():
    r = subprocess.run([sys.executable, "-m", "app.cli", "build", "--base", "some/base"], cwd=ROOT,
                       capture_output=True, text=True)
    assert r.returncode == 2 and "--base: give --out DIR" in r.stderr, (r.returncode, r.stderr)
