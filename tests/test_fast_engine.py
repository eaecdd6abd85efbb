"""The fast engine (engine/fast.py) against stock transformers, on small random Qwen3.5 checkpoints.

Expected values come from ``AutoModelForCausalLM.from_pretrained`` of the same directory (the
reference), never from the engine: logits within float32 tolerance, identical greedy tokens, equal
cache states (DeltaNet recurrent and conv states, attention keys), prefill then decode, both
dtypes. The dense models exercise every operation; the structured one has the zero patterns the
engine compacts away (dead key heads, dead value heads, dead key and value channels, dead MLP
neurons, an attention layer with zero values, a layer whose decay is exactly 1), so each shortcut
is checked against the stock computation of the same weights.
"""

from __future__ import annotations

import json

import pytest
import torch

from engine.fast import FastCache, FastModel

LAYERS = ["linear_attention", "full_attention", "linear_attention", "linear_attention", "full_attention"]


def _config(**kw):
    from transformers import Qwen3_5TextConfig

    base = dict(vocab_size=300, hidden_size=64, intermediate_size=96, num_hidden_layers=len(LAYERS),
                layer_types=LAYERS, num_attention_heads=4, num_key_value_heads=2, head_dim=16,
                linear_num_key_heads=2, linear_num_value_heads=4, linear_key_head_dim=16,
                linear_value_head_dim=8, tie_word_embeddings=False)
    base.update(kw)
    return Qwen3_5TextConfig(**base)


def _random_model(seed: int, **kw):
    from transformers import AutoModelForCausalLM

    torch.manual_seed(seed)
    m = AutoModelForCausalLM.from_config(_config(**kw)).eval()
    with torch.no_grad():  # non-trivial norms, gates and decays (the defaults are 0 / 1)
        for n, p in m.named_parameters():
            if "norm" in n or "dt_bias" in n:
                p.normal_(0, 0.5)
            elif "A_log" in n:
                p.uniform_(-3, 1)
    return m


def _sparsify(m) -> None:
    """Zero what the engine drops, in ways that must give exactly what the stock model gives."""
    c = m.config
    dk, dv = c.linear_key_head_dim, c.linear_value_head_dim
    kd = c.linear_num_key_heads * dk
    with torch.no_grad():
        L0 = m.model.layers[0].linear_attn
        L0.in_proj_qkv.weight[kd + dk:2 * kd] = 0        # key head 1 never writes: value heads 2, 3 dead
        L0.in_proj_qkv.weight[[3, 7, kd + 3, kd + 7]] = 0  # key channels 3 and 7 dead in key head 0
        L0.A_log.fill_(-200.0)                            # exp(A_log) = 0: no decay at all
        L2 = m.model.layers[2].linear_attn
        L2.in_proj_qkv.weight[2 * kd + dv:2 * kd + 2 * dv] = 0  # value head 1: no value, dead
        for h in range(c.linear_num_value_heads):          # value channel 5 dead in every head
            L2.in_proj_qkv.weight[2 * kd + h * dv + 5] = 0
        L2.conv1d.weight[2 * kd + 2] = 0                   # conv taps that kill one value channel of head 0
        m.model.layers[3].linear_attn.in_proj_qkv.weight[kd:2 * kd] = 0  # no key at all: mixer adds 0
        m.model.layers[1].self_attn.v_proj.weight.zero_()  # attention with zero values adds 0
        m.model.layers[2].mlp.up_proj.weight[:40] = 0      # dead neurons (up, gate, down in turn)
        m.model.layers[2].mlp.gate_proj.weight[40:50] = 0
        m.model.layers[2].mlp.down_proj.weight[:, 50:60] = 0
        m.model.layers[4].mlp.down_proj.weight.zero_()     # an MLP that adds 0
        m.model.embed_tokens.weight[:, 10:20] = 0          # residual channels no token writes


@pytest.fixture(scope="module", params=["dense", "dense_tied", "structured"])
def ckpt(request, tmp_path_factory):
    m = _random_model(1 + ["dense", "dense_tied", "structured"].index(request.param),
                      tie_word_embeddings=request.param == "dense_tied")
    if request.param == "structured":
        _sparsify(m)
    d = tmp_path_factory.mktemp(request.param)
    m.save_pretrained(d)
    return d


@pytest.fixture(autouse=True)
def _compact_cache(tmp_path, monkeypatch):
    monkeypatch.setenv("QGPU_COMPACT", str(tmp_path / "compact"))


def _hf(path, dtype):
    from transformers import AutoModelForCausalLM

    return AutoModelForCausalLM.from_pretrained(path, dtype=getattr(torch, dtype)).eval()


def _hf_cache_forward(model, ids, cache):
    with torch.no_grad():
        return model(input_ids=ids, cache=cache, use_cache=True).logits


TOL = {"float32": 2e-5, "bfloat16": 0.02}
"""float32: products summed in another order differ in the last bits; bfloat16: such a difference
sometimes moves a rounded value by one bfloat16 step (0.4 % relative), which the next layers carry
(measured: up to 0.01 on these logits of magnitude ~1). Greedy tokens must still be identical."""


STEP = {"float32": 0.0, "bfloat16": 2.0 ** -7}
"""One bfloat16 step, relative: the keys of a full-attention layer are stored in the model dtype, so
the rounding step above is relative to their magnitude (measured: 0.03125 = one step on a key of
magnitude 4-8, in the tied random checkpoint's layer 4, transformers 5.25.0 / torch 2.13.0)."""
STATE_TOL = {"float32": 1e-6, "bfloat16": 5e-3}
"""The DeltaNet states are float32 in both dtypes; in bfloat16 their inputs carry the rounding
steps above."""


PATHS = {"c": True, "torch": False}
"""One-token steps run in C (engine/native.py, the default where a C compiler works) or on the torch
path: both are checked against stock transformers (``native=True`` fails loudly without a compiler)."""


@pytest.mark.parametrize("path", PATHS)
@pytest.mark.parametrize("dtype", ["float32", "bfloat16"])
def test_prefill_then_decode_equals_transformers(ckpt, dtype, path):
    from transformers import DynamicCache

    hf, fast = _hf(ckpt, dtype), FastModel(ckpt, dtype, native=PATHS[path])
    ids = torch.randint(0, 300, (1, 40), generator=torch.Generator().manual_seed(7))
    cache, fc = DynamicCache(config=hf.config), fast.new_cache()
    # a long prompt (chunked kernel, 64-token chunks padded), single tokens (recurrent kernel), a short chunk
    for a, b in [(0, 30), (30, 31), (31, 32), (32, 40)]:
        want = _hf_cache_forward(hf, ids[:, a:b], cache)
        got, _ = fast.forward(ids[:, a:b], fc)
        assert got.dtype == want.dtype
        assert torch.allclose(got.float(), want.float(), atol=TOL[dtype], rtol=0), (a, b)
    types = hf.config.layer_types
    for i, kind in enumerate(types):
        layer = cache.layers[i]
        if kind == "linear_attention":
            want_S = layer.recurrent_states[0]
            assert torch.allclose(fast.recurrent_state(fc, i), want_S, atol=STATE_TOL[dtype], rtol=0), i
            m = fast.layers[i].mixer
            if m is not None:  # the conv window of the kept channels: the last kernel-1 inputs
                c = hf.config
                kd, dk, dv = c.linear_num_key_heads * c.linear_key_head_dim, c.linear_key_head_dim, c.linear_value_head_dim
                heads = torch.tensor(m.heads)
                keys = sorted({h // (c.linear_num_value_heads // c.linear_num_key_heads) for h in m.heads})
                krows = torch.cat([k * dk + m.kch for k in keys])
                rows = torch.cat([krows, kd + krows, 2 * kd + (heads[:, None] * dv + m.vch).reshape(-1)])
                assert torch.allclose(fc.conv[i][0].t().float(), layer.conv_states[0][0, rows, 1:].float(),
                                      atol=TOL[dtype] or 1e-6, rtol=0), i
        elif fast.layers[i].mixer is not None:
            assert torch.allclose(fc.keys[i], layer.keys, atol=TOL[dtype] or 1e-6, rtol=STEP[dtype]), i


@pytest.mark.parametrize("path", PATHS)
@pytest.mark.parametrize("dtype", ["float32", "bfloat16"])
def test_greedy_generation_equals_transformers_generate(ckpt, dtype, path):
    hf, fast = _hf(ckpt, dtype), FastModel(ckpt, dtype, native=PATHS[path])
    prompt = torch.randint(0, 300, (1, 9), generator=torch.Generator().manual_seed(3))
    with torch.no_grad():
        want = hf.generate(prompt, max_new_tokens=30, do_sample=False, pad_token_id=0)[0, 9:].tolist()
    assert fast.generate(prompt[0].tolist(), 30) == want


def test_the_structured_model_is_compacted(tmp_path_factory):
    """The zero patterns of ``_sparsify`` are found: otherwise the equality above proves nothing
    about the shortcuts."""
    m = _random_model(3)
    _sparsify(m)
    d = tmp_path_factory.mktemp("structured_check")
    m.save_pretrained(d)
    fast = FastModel(d)
    L = fast.layers
    assert L[0].mixer.heads == [0, 1] and len(L[0].mixer.kch) == 14 and L[0].mixer.no_decay
    assert L[2].mixer.heads == [0, 2, 3] and len(L[2].mixer.vch) == 7  # channel 5 dead in every head and not L[2].mixer.no_decay
    assert L[1].mixer is None and L[3].mixer is None and L[4].mlp is None
    assert L[2].mlp.n == 96 - 60
    assert fast.embed_cols.numel() == 64 - 10


def test_batched_decode_equals_one_by_one(tmp_path_factory):
    """Two sequences of different lengths stepped together give what each gives alone (no live
    attention layer: positions matter only there); with a live attention layer stacking is refused."""
    m = _random_model(5)
    _sparsify(m)
    with torch.no_grad():
        m.model.layers[4].self_attn.v_proj.weight.zero_()
    d = tmp_path_factory.mktemp("batch")
    m.save_pretrained(d)
    fast = FastModel(d)
    prompts = [[5, 6, 7, 8, 9, 10, 11], [40, 41, 42]]
    alone = [fast.generate(p, 12) for p in prompts]
    caches, nxt = [], []
    for p in prompts:
        c = fast.new_cache()
        logits, _ = fast.forward(torch.tensor([p]), c, logits_to_keep=1)
        caches.append(c)
        nxt.append([int(logits[0, -1].argmax())])
    cache, out = FastCache.stack(caches), [list(n) for n in nxt]
    for _ in range(11):
        logits, _ = fast.forward(torch.tensor([o[-1:] for o in out]), cache, logits_to_keep=1)
        for row, o in enumerate(out):
            o.append(int(logits[row, -1].argmax()))
    assert out == alone
    live = FastModel(_saved_dir(tmp_path_factory.mktemp("live"), _random_model(6)))
    a, b = live.new_cache(), live.new_cache()
    live.forward(torch.tensor([[1, 2, 3]]), a)
    live.forward(torch.tensor([[1, 2]]), b)
    with pytest.raises(ValueError, match="different lengths"):
        FastCache.stack([a, b])


def test_the_compacted_form_is_cached_and_follows_the_checkpoint(tmp_path, monkeypatch):
    """Loading twice reuses the cached compact form; rewriting the weights gives a new one (the
    engine never runs stale weights)."""
    from engine.fast import compact_cache_dir

    d = _saved_dir(tmp_path / "a", _random_model(8))
    first = FastModel(d)
    files = sorted(compact_cache_dir().glob("*.pt"))
    assert len(files) == 1
    FastModel(d)
    assert sorted(compact_cache_dir().glob("*.pt")) == files
    m = _random_model(9)
    m.save_pretrained(d)
    second = FastModel(d)
    assert len(list(compact_cache_dir().glob("*.pt"))) == 2
    ids = torch.tensor([[3, 4, 5]])
    a, _ = first.forward(ids, first.new_cache())
    b, _ = second.forward(ids, second.new_cache())
    want = _hf_cache_forward(_hf(d, "float32"), ids, None)
    assert torch.allclose(b, want, atol=2e-5) and not torch.allclose(a, want, atol=1e-3)


def _saved_dir(d, m):
    m.save_pretrained(d)
    return d


def test_multimodal_layout_reads_text_config(tmp_path):
    """A checkpoint with ``text_config`` and ``model.language_model.*`` weights (the layout of the
    multimodal Qwen3.5 checkpoints) runs like its text-only form."""
    from safetensors.torch import load_file, save_file

    m = _random_model(11)
    text = _saved_dir(tmp_path / "text", m)
    mm = tmp_path / "mm"
    mm.mkdir()
    w = load_file(text / "model.safetensors")
    save_file({k.replace("model.", "model.language_model.", 1): v for k, v in w.items()}, mm / "model.safetensors")
    cfg = json.loads((text / "config.json").read_text())
    (mm / "config.json").write_text(json.dumps({"model_type": "qwen3_5", "text_config": cfg}))
    ids = torch.tensor([[7, 8, 9, 10]])
    a, _ = FastModel(text).forward(ids, FastCache())
    b, _ = FastModel(mm).forward(ids, FastCache())
    assert torch.equal(a, b)


def test_qgpu_generate_gives_the_same_continuation_on_both_engines(tmp_path):
    """``qgpu generate`` in fresh processes: a dense random checkpoint with full-attention layers,
    the fast engine and stock ``generate()`` print the same greedy continuation."""
    import subprocess
    import sys

    d = _saved_dir(tmp_path / "m", _random_model(12))
    out = {}
    for engine in ("fast", "hf"):
        r = subprocess.run([sys.executable, "-m", "app.cli", "generate", str(d), "--ids", "4,5,6,7",
                            "--max-new-tokens", "16", "--engine", engine, "--json"],
                           capture_output=True, text=True, timeout=300,
                           env={**__import__("os").environ, "QGPU_COMPACT": str(tmp_path / "c")})
        assert r.returncode == 0, r.stderr[-2000:]
        out[engine] = json.loads(r.stdout)["new_ids"]
    assert len(out["hf"]) == 16 and out["fast"] == out["hf"]
    r = subprocess.run([sys.executable, "-m", "app.cli", "generate", str(d), "--ids", "4,x"],
                       capture_output=True, text=True, timeout=300)
    assert r.returncode == 2 and "--ids" in r.stderr

# (layer, kind, index): on the structured model, neuron 55 of layer 2 is dead (down column zero),
# value head 1 of layer 2 is dead, layer 1's attention, layer 3's DeltaNet and layer 4's MLP add 0.
SILENCE = [(0, "neuron", 7), (2, "neuron", 70), (0, "head", 1), (2, "head", 2), (1, "head", 3), (4, "head", 0),
           (3, "head", 0), (2, "neuron", 55), (2, "head", 1), (4, "neuron", 3)]


@pytest.mark.parametrize("dtype", ["float32", "bfloat16"])
def test_silenced_units_equal_transformers_with_those_weights_zeroed(ckpt, dtype):
    """Fault injection's generic part (engine/faults.py, ``L<i>.n<k>`` / ``L<i>.h<k>``): silencing a
    neuron or head on the fast engine gives what stock transformers gives with the same columns of
    its weights zeroed; a unit the fast engine compacted away reports False (stock: False only
    where its output columns are zero); ``unsilence``
    gives the checkpoint's logits back bit for bit."""
    from engine.model import HFExecutor

    hf, fast = HFExecutor(ckpt, dtype, "cpu"), FastModel(ckpt, dtype)
    ids = torch.randint(0, 300, (1, 12), generator=torch.Generator().manual_seed(5))
    before, _ = fast.forward(ids, fast.new_cache())
    weights = {n: p.clone() for n, p in hf.model.named_parameters()}
    said = {}
    for layer, kind, index in SILENCE:
        said[layer, kind, index] = h, f = hf.silence(layer, kind, index), fast.silence(layer, kind, index)
        assert h or not f, (layer, kind, index)  # zero columns are compacted away: False on both
    if "structured" in str(ckpt):  # False on the fast engine also where another weight makes the output 0
        assert [k for k, (h, f) in said.items() if not f] == [(1, "head", 3), (3, "head", 0), (2, "neuron", 55),
                                                             (2, "head", 1), (4, "neuron", 3)]
    else:
        assert all(f for h, f in said.values())
    changed = {n for n, p in hf.model.named_parameters() if not torch.equal(p, weights[n])}
    assert changed <= {f"model.layers.{i}.{w}.weight" for i in range(5)
                       for w in ("mlp.down_proj", "linear_attn.out_proj", "self_attn.o_proj")} and changed
    hc, fc = hf.new_cache(), fast.new_cache()
    for part in (ids[:, :11], ids[:, 11:]):  # a prompt, then a one-token step (the C step where it runs)
        want, _ = hf.forward(part, hc)
        got, _ = fast.forward(part, fc)
        assert torch.allclose(got.float(), want.float(), atol=TOL[dtype], rtol=0)
    got, _ = fast.forward(ids, fast.new_cache())
    assert not torch.equal(got, before)
    for eng in (hf, fast):
        with pytest.raises(ValueError, match="layer 0"):
            eng.silence(0, "neuron", 96)
        with pytest.raises(ValueError, match="layer 0"):
            eng.silence(0, "head", 4)
    hf.unsilence(), fast.unsilence()
    assert all(torch.equal(p, weights[n]) for n, p in hf.model.named_parameters())
    again, _ = fast.forward(ids, fast.new_cache())
    assert torch.equal(again, before)


def test_the_c_step_is_optional(tmp_path, monkeypatch):
    """Without a working C compiler (or with ``QGPU_NATIVE=0``) the engine runs its torch path and
    says so; ``native=True`` then fails loudly instead of falling back silently."""
    from engine import native

    d = _saved_dir(tmp_path / "m", _random_model(13))
    monkeypatch.setenv("QGPU_COMPACT", str(tmp_path / "c"))
    monkeypatch.setenv("CC", str(tmp_path / "no-such-cc"))
    with pytest.raises(FileNotFoundError):
        native._load()
    monkeypatch.setenv("CC", "false")  # a compiler that fails
    with pytest.raises(OSError, match="failed"):
        native._load()
    monkeypatch.setenv("QGPU_NATIVE", "0")
    assert native.library() is None and native.why_not() == "QGPU_NATIVE=0"
    m = FastModel(d)
    assert not m.native
    with pytest.raises(RuntimeError, match="QGPU_NATIVE=0"):
        FastModel(d, native=True)
    monkeypatch.delenv("QGPU_NATIVE")
    monkeypatch.delenv("CC")
    assert FastModel(d).native and FastModel(d, native=False).native is False
