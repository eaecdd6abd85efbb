"""Placing the circuit into another config's uniform shapes (``checkpoint.Shape``), the first step
of a merge with a Qwen3.5 base (issue 26): a key head with more value heads than the shape's
``m`` is copied into consecutive key heads, and value heads may be wider than the circuit's 64
columns. The circuit's own checkpoint is placed exactly as before (the weights of a built model
were compared before and after this change: identical)."""

from __future__ import annotations

import dataclasses
import json

import pytest

from compiler.circuit.checkpoint import Shape, fill_layer, _norm_weight
from compiler.circuit.digest import machine
from compiler.circuit.dims import DK, DV, HEADS_PER_KEY
from compiler.circuit.gpu import build_spec


@pytest.fixture(scope="module")
def spec():
    return build_spec(machine("2:12"))


def test_own_shape_places_each_key_head_once(spec):
    own = spec.own_shape()
    assert own == spec.placed
    assert (own.m, own.dk, own.dv) == (HEADS_PER_KEY, DK, DV)
    assert own.nk == max(len(L.heads) for L in spec.layers)
    for L in spec.layers:
        assert spec.key_starts(L.index) == list(range(len(L.heads)))
    kw = spec.config_kwargs()
    assert kw["linear_num_value_heads"] == own.nk * HEADS_PER_KEY
    assert Shape.of_config(kw) == own


def test_needs_counts_key_head_copies(spec):
    value_heads = max(sum(len(kh.values) for kh in L.heads) for L in spec.layers)
    one = spec.needs(1)
    assert one.nk == value_heads  # one key head per value head
    assert spec.needs(HEADS_PER_KEY).nk == spec.own_shape().nk
    # the memory's 126 words and the pc file's 61 blocks + 3 columns set the rows and columns
    assert 126 <= one.dk <= DK and one.dv == DV and one.conv <= 4
    placed = dataclasses.replace(spec, shape=one)
    for L in spec.layers:
        starts = placed.key_starts(L.index)
        sizes = [len(kh.values) for kh in L.heads]
        assert starts == [sum(sizes[:i]) for i in range(len(sizes))]


def _layer(spec, shape: Shape, index: int):
    """One ``transformers`` decoder layer of ``shape`` (zeroed) with circuit layer ``index`` in it."""
    import torch
    from transformers import Qwen3_5TextConfig
    from transformers.models.qwen3_5.modeling_qwen3_5 import Qwen3_5DecoderLayer

    placed = dataclasses.replace(spec, shape=shape)
    cfg = Qwen3_5TextConfig(**placed.config_kwargs())
    layer = Qwen3_5DecoderLayer(cfg, index)
    with torch.no_grad():
        for p in layer.parameters():
            p.zero_()
        fill_layer(placed, spec.layers[index], layer, _norm_weight(placed).float())
    return layer


def test_a_shape_with_too_few_key_heads_is_refused(spec):
    index = max(range(len(spec.layers)), key=lambda i: sum(len(kh.values) for kh in spec.layers[i].heads))
    need = spec.needs(2)
    _layer(spec, need, index)  # fits
    with pytest.raises(ValueError, match="physical key heads"):
        _layer(spec, dataclasses.replace(need, nk=need.nk - 1), index)


def test_copies_carry_the_same_query_and_key(spec):
    """Every physical copy of a key head has the same q/k projection rows and conv taps."""
    index = max(range(len(spec.layers)), key=lambda i: max([len(kh.values) for kh in spec.layers[i].heads] + [0]))
    shape = dataclasses.replace(spec.needs(2), dv=2 * DV)
    la = _layer(spec, shape, index).linear_attn
    W, C = la.in_proj_qkv.weight, la.conv1d.weight
    kdim = shape.nk * shape.dk
    placed = dataclasses.replace(spec, shape=shape)
    for start, kh in zip(placed.key_starts(index), spec.layers[index].heads):
        copies = -(-len(kh.values) // shape.m)
        for off in (0, kdim):  # q, then k
            first = W[off + start * shape.dk: off + (start + 1) * shape.dk]
            assert first.abs().sum() > 0
            for c in range(1, copies):
                rows = slice(off + (start + c) * shape.dk, off + (start + c + 1) * shape.dk)
                assert (W[rows] == first).all()
                assert (C[rows] == C[off + start * shape.dk: off + (start + 1) * shape.dk]).all()
    # the value columns beyond the circuit's 64 are never written or read
    v = W[2 * kdim:].view(shape.nk * shape.m, shape.dv, -1)
    assert v[:, DV:].abs().sum() == 0
    assert la.out_proj.weight.view(la.out_proj.weight.shape[0], shape.nk * shape.m, shape.dv)[:, :, DV:].abs().sum() == 0


@pytest.mark.model
@pytest.mark.full
def test_a_placed_circuit_generates_exactly(tmp_path, spec):
    """The 2-instruction, 12-block machine placed with 4 value heads per key head (copies) in
    128-column value heads, written as a checkpoint and generated on the fast engine: every token
    and the decoded memory equal the interpreter's. ~9 GiB in float32: ``full`` for CI's time and disk."""
    from compiler.circuit.build import build_checkpoint
    from engine.model import GpuModel
    from test_default_checkpoint import _generate_all

    shape = dataclasses.replace(spec.needs(4), dv=2 * DV)
    placed = dataclasses.replace(spec, shape=shape)
    out = build_checkpoint(tmp_path / "placed", machine("2:12"), print, spec=placed)
    cfg = json.loads((out / "config.json").read_text())
    assert Shape.of_config(cfg) == shape
    gpu = GpuModel(out, "float32")
    _generate_all(gpu, ["samples/vector_add.cu", "samples/popc_clz_brev.cu"])


def test_merged_config_keeps_the_base_and_holds_the_circuit(spec):
    """compiler/merge.py's shape rule on Qwen3.5-2B's config (docs/qwen35/qwen3.5-2b.json) and on a
    small base whose heads are narrower than the circuit's (they are padded)."""
    from transformers import Qwen3_5TextConfig

    from compiler.merge import merged_config, merged_shape

    base2b = {k: v for k, v in json.loads(open("docs/qwen35/qwen3.5-2b.json").read()).items() if not k.startswith("_")}
    small = dict(base2b, hidden_size=128, intermediate_size=384, num_hidden_layers=4,
                 layer_types=["linear_attention"] * 3 + ["full_attention"], linear_num_key_heads=2,
                 linear_num_value_heads=4, linear_key_head_dim=32, linear_value_head_dim=32, vocab_size=1024)
    for base in (base2b, {"text_config": small}):
        b = base.get("text_config", base)
        kw = merged_config(spec, base)
        s = merged_shape(spec, base)
        assert Shape.of_config(kw) == s
        assert s.m == b["linear_num_value_heads"] // b["linear_num_key_heads"]
        assert s.nk >= b["linear_num_key_heads"] and s.dk >= b["linear_key_head_dim"]
        assert s.dv >= b["linear_value_head_dim"] and s.intermediate >= b["intermediate_size"]
        assert s.nk >= spec.needs(s.m).nk and s.dk >= 126 and s.dv >= DV
        assert kw["layer_types"][len(spec.layer_types()):] == b["layer_types"]
        assert kw["hidden_size"] == b["hidden_size"] + 1 + -(-spec.space.size // 64) * 64
        assert kw["vocab_size"] == b["vocab_size"] + len(spec.vocab)
        assert (kw["num_attention_heads"], kw["head_dim"]) == (b["num_attention_heads"], b["head_dim"])
        Qwen3_5TextConfig(**kw)  # a valid config
    assert merged_shape(spec, {"text_config": small}).dk == spec.needs(2).dk > 32  # 32-row heads padded
