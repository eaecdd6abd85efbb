"""The GPU inside a Qwen3.5 base (issue 26): the merged config's shapes and size.

A merged checkpoint is one stock Qwen3.5 config, so every layer — the circuit's and the base's —
has the same head counts, head dimensions, conv kernel and MLP width (``checkpoint.Shape``). The
rule here: start from the base's shape and raise each dimension only as far as the circuit needs
with the base's value heads per key head (``CircuitSpec.needs``: key heads copied as required);
padding the base's layers with zero key/value heads, zero conv taps or zero neurons leaves them
exact. Residual: the circuit's channels, one text-flag channel, then the base's channels; layers:
the circuit's, then the base's; vocabulary: the base's ids unchanged, then the circuit's tokens;
the LM head untied (circuit tokens need LM-head rows that differ from their embeddings).

Weights (:func:`build_merged`), by construction:

* **Norms.** Text tokens carry the base's channels (times a power of two ``gain``) and the flag
  ``α`` (nothing else). One config eps and ``α`` are chosen (:class:`Norms`) so that every norm of
  the base's layers — residual, gated DeltaNet (padded heads), attention q/k — gives on text what
  it gave in the base, up to float rounding.
* **The circuit is mute on text.** Its weights read only its own channels, which are 0 on text,
  except through the conv look-back after a launch; its heads' ``β`` and output gates get
  ``−MUTE`` on the flag, so on text they write nothing into the state and output exactly 0 — the
  machine's state survives text.
* **The base is mute on circuit tokens.** Its DeltaNet heads get ``−MUTE`` on the anchor in ``β``
  (no write), ``a`` (decay exactly 1) and the output gate; its attention's output gate too. The
  base's channels stay exactly 0 at circuit positions, so text tokens score 0 there against the
  circuit's ``SCORE``. What remains: the base's attention keeps circuit positions in its cache
  (keys 0: score 0, not −∞) and the conv window of the first text tokens after a launch covers
  circuit tokens — text after a launch drifts (measured separately).
* **LM head, untied.** Base ids: the base's LM head (its embedding if tied) on its channels.
  Circuit ids: the circuit's rows, plus ``−LM_MUTE`` on the flag, so they get no mass on text.
* **Tokenizer.** The base's, with the circuit's tokens added as special tokens named
  ``TOKEN_FORMAT`` at ids from the base's ``vocab_size`` on (fillers for rows without a token
  before them); base ids are unchanged.
"""

from __future__ import annotations

import dataclasses
import json
import math
from pathlib import Path
from typing import Callable

import torch

from compiler.circuit.checkpoint import MUTE, CircuitSpec, Shape

FLAG_CHANNELS = 1
"""Channels between the circuit's and the base's: the text flag (on every base token's
embedding; it mutes the circuit on text and keeps circuit tokens off text positions)."""


def text_config(config: dict) -> dict:
    """The text part of a Qwen3.5 ``config.json``: ``text_config`` of a multimodal checkpoint, or
    the config itself (``Qwen3_5ForCausalLM``)."""
    return config.get("text_config", config)


def merged_shape(spec: CircuitSpec, base: dict) -> Shape:
    """The base's shape, each dimension raised to what the circuit needs (see the module doc).
    A raised ``dk``/``dv`` pads the base's own heads (exact: see :class:`Norms`)."""
    b = Shape.of_config(text_config(base))
    need = spec.needs(b.m)
    return Shape(nk=max(b.nk, need.nk), m=b.m, dk=max(b.dk, need.dk), dv=max(b.dv, need.dv),
                 conv=max(b.conv, need.conv), intermediate=max(b.intermediate, need.intermediate))


def circuit_channels(spec: CircuitSpec) -> int:
    """The circuit's part of the residual (its own width, rounded up to 64)."""
    return -(-spec.space.size // 64) * 64


def merged_config(spec: CircuitSpec, base: dict, tied: bool = False) -> dict:
    """``Qwen3_5TextConfig`` keyword arguments of the merged model (``tied``: the size of a tied
    variant, for comparison; the merge itself unties)."""
    b = text_config(base)
    s = merged_shape(spec, base)
    types = spec.layer_types() + list(b["layer_types"])
    keep = ("num_attention_heads", "num_key_value_heads", "head_dim", "rms_norm_eps", "rope_parameters",
            "max_position_embeddings", "partial_rotary_factor")
    return dict(
        {k: b[k] for k in keep if k in b},
        hidden_size=circuit_channels(spec) + FLAG_CHANNELS + b["hidden_size"],
        intermediate_size=s.intermediate, num_hidden_layers=len(types), layer_types=types,
        linear_num_key_heads=s.nk, linear_num_value_heads=s.nk * s.m, linear_key_head_dim=s.dk,
        linear_value_head_dim=s.dv, linear_conv_kernel_dim=s.conv,
        vocab_size=b["vocab_size"] + len(spec.vocab), tie_word_embeddings=tied)


LM_MUTE = 2.0 ** 16
"""A circuit token's LM-head weight on the (normalised) flag: far below every text logit."""
TOKEN_FORMAT = "<|qgpu:{}|>"
"""The name of a circuit token in a merged tokenizer: ``END``, ``GO``, ``R``... are ordinary BPE
tokens of a real vocabulary, so the circuit's names are wrapped."""
UNUSED_FORMAT = "<|qgpu:unused.{}|>"
"""Filler tokens for a base's rows that its tokenizer leaves without a token (``_write_tokenizer``)."""


@dataclasses.dataclass(frozen=True)
class Norms:
    """One config ``rms_norm_eps`` for three kinds of norm, each exact on the base's channels.

    * The gated DeltaNet norm of a padded base head sees its core output scaled by
      ``sqrt(dk_base/dk)`` (the query scale) with ``dv − dv_base`` zero columns: variance times
      ``kappa = dk_base·dv_base/(dk·dv)``. With eps ``kappa·eps`` it gives the base's value
      up to the constant ``sqrt(dv_base/dv)``, folded into its weight. (Core outputs of small
      models are comparable to eps: eps cannot be ignored.)
    * The residual norms of the base's layers see ``hidden`` channels: the base's, scaled by
      ``gain`` (embeddings and every write into the residual), and the flag ``alpha``; with
      ``alpha² = gain²·eps·H − kappa·eps·hidden`` they give the base's value times
      ``sqrt(hidden/H)``, folded into their weight. ``gain`` is the smallest power of two
      (≥ 1) with ``alpha² ≥ kappa·eps·hidden``.
    * Attention's q/k head norms: their inputs are scaled by ``sqrt(kappa)``.
    """

    eps: float
    H: int
    hidden: int
    kappa: float

    @property
    def merged_eps(self) -> float:
        return self.kappa * self.eps

    @property
    def gain(self) -> float:
        return 2.0 ** max(0, math.ceil(0.5 * math.log2(2 * self.kappa * self.hidden / self.H)))

    @property
    def alpha(self) -> float:
        return math.sqrt(self.gain ** 2 * self.eps * self.H - self.merged_eps * self.hidden)

    @property
    def scale(self) -> float:
        """Factor on a base residual norm's ``1 + w``."""
        return math.sqrt(self.H / self.hidden)

    @staticmethod
    def of(b: dict, s: Shape, hidden: int) -> "Norms":
        bs = Shape.of_config(b)
        return Norms(eps=b.get("rms_norm_eps", 1e-6), H=b["hidden_size"], hidden=hidden,
                     kappa=bs.dk * bs.dv / (s.dk * s.dv) if "linear_attention" in b["layer_types"] else 1.0)


def _zero_layer(cfg, index: int):
    from transformers.models.qwen3_5.modeling_qwen3_5 import Qwen3_5DecoderLayer

    layer = Qwen3_5DecoderLayer(cfg, index)
    with torch.no_grad():
        for p in layer.parameters():
            p.zero_()
    return layer


def _base_layer(layer, W, pre: str, b: dict, s: Shape, off: int, anchor: int, norm_scale: float,
                gain: float, kappa: float) -> None:
    """Copy base layer ``pre`` into the zeroed merged ``layer``: base channels at ``off``, heads padded
    to shape ``s``, norms compensated (:class:`Norms`), muted on circuit tokens through the anchor."""
    H = b["hidden_size"]
    ch = slice(off, off + H)
    for name in ("input_layernorm", "post_attention_layernorm"):
        w = getattr(layer, name).weight
        w[ch] = (1 + W(f"{pre}.{name}.weight")) * norm_scale - 1
    mlp = layer.mlp
    g = W(f"{pre}.mlp.gate_proj.weight")
    I = g.shape[0]
    mlp.gate_proj.weight[:I, ch] = g
    mlp.up_proj.weight[:I, ch] = W(f"{pre}.mlp.up_proj.weight")
    mlp.down_proj.weight[ch, :I] = W(f"{pre}.mlp.down_proj.weight") * gain
    if hasattr(layer, "linear_attn"):
        la = layer.linear_attn
        bs = Shape.of_config(b)
        nvb, nvm = bs.nk * bs.m, s.nk * s.m
        rows = ([h * s.dk + r for h in range(bs.nk) for r in range(bs.dk)]
                + [s.nk * s.dk + h * s.dk + r for h in range(bs.nk) for r in range(bs.dk)]
                + [2 * s.nk * s.dk + j * s.dv + c for j in range(nvb) for c in range(bs.dv)])
        rows = torch.tensor(rows)
        vcols = torch.tensor([j * s.dv + c for j in range(nvb) for c in range(bs.dv)])
        la.in_proj_qkv.weight[rows[:, None], torch.arange(off, off + H)] = W(f"{pre}.linear_attn.in_proj_qkv.weight")
        la.conv1d.weight[rows, :, s.conv - bs.conv:] = W(f"{pre}.linear_attn.conv1d.weight")
        la.in_proj_z.weight[vcols[:, None], torch.arange(off, off + H)] = W(f"{pre}.linear_attn.in_proj_z.weight")
        la.in_proj_b.weight[:nvb, ch] = W(f"{pre}.linear_attn.in_proj_b.weight")
        la.in_proj_a.weight[:nvb, ch] = W(f"{pre}.linear_attn.in_proj_a.weight")
        la.dt_bias[:nvb] = W(f"{pre}.linear_attn.dt_bias")
        la.A_log[:nvb] = W(f"{pre}.linear_attn.A_log")
        # a padded value head spreads its RMS over s.dv columns: scale the weight back
        la.norm.weight[:bs.dv] = W(f"{pre}.linear_attn.norm.weight") * math.sqrt(bs.dv / s.dv)
        la.out_proj.weight[off:off + H, vcols] = W(f"{pre}.linear_attn.out_proj.weight") * gain
        for proj in (la.in_proj_b, la.in_proj_a, la.in_proj_z):
            proj.weight[:, anchor] = -MUTE
        assert nvm >= nvb
    else:
        at = layer.self_attn
        for name in ("q_proj", "k_proj", "v_proj"):
            getattr(at, name).weight[:, ch] = W(f"{pre}.self_attn.{name}.weight")
        at.o_proj.weight[ch, :] = W(f"{pre}.self_attn.o_proj.weight") * gain
        at.q_norm.weight.copy_(W(f"{pre}.self_attn.q_norm.weight"))
        at.k_norm.weight.copy_(W(f"{pre}.self_attn.k_norm.weight"))
        hd = at.head_dim
        at.k_proj.weight.mul_(math.sqrt(kappa))  # q_norm/k_norm see eps·kappa: scale their inputs alike
        for h in range(at.q_proj.weight.shape[0] // (2 * hd)):  # per head: [query | output gate]
            at.q_proj.weight[h * 2 * hd:h * 2 * hd + hd].mul_(math.sqrt(kappa))
            at.q_proj.weight[h * 2 * hd + hd:(h + 1) * 2 * hd, anchor] = -MUTE


def _write_tokenizer(base: Path, out: Path, vocab: list[str], first: int) -> None:
    """The base's tokenizer with the circuit's tokens added as special tokens at ids ``first``,
    ``first + 1``... ``tokenizers`` numbers added tokens consecutively after the ones it has
    (the ``id`` written in tokenizer.json is not honoured), so a base whose tokenizer is smaller
    than its ``vocab_size`` (Qwen3.5: 248,077 tokens, 248,320 rows) gets filler tokens
    ``UNUSED_FORMAT`` for the rows between; the ids are checked after writing."""
    from tokenizers import Tokenizer

    tj = json.loads((base / "tokenizer.json").read_text())
    added = tj.setdefault("added_tokens", [])
    taken = {t["content"] for t in added} | set(tj.get("model", {}).get("vocab", {}))
    size = Tokenizer.from_str(json.dumps(tj)).get_vocab_size(with_added_tokens=True)
    if size > first:
        raise ValueError(f"{base}: the tokenizer has {size} tokens, more than the model's vocab_size {first}")
    names = [UNUSED_FORMAT.format(i) for i in range(size, first)] + [TOKEN_FORMAT.format(n) for n in vocab]
    for i, content in enumerate(names):
        if content in taken:
            raise ValueError(f"{base}: the tokenizer already has a token {content!r}")
        added.append({"id": size + i, "content": content, "single_word": False, "lstrip": False,
                      "rstrip": False, "normalized": False, "special": True})
    (out / "tokenizer.json").write_text(json.dumps(tj, ensure_ascii=False))
    got = Tokenizer.from_file(str(out / "tokenizer.json"))
    bad = [n for i, n in enumerate(vocab) if got.token_to_id(TOKEN_FORMAT.format(n)) != first + i]
    if bad:
        raise RuntimeError(f"merged tokenizer: {len(bad)} circuit tokens off their rows, e.g. {bad[0]!r}")
    tc = json.loads((base / "tokenizer_config.json").read_text()) if (base / "tokenizer_config.json").exists() else {}
    tc.pop("added_tokens_decoder", None)
    tc.setdefault("tokenizer_class", "PreTrainedTokenizerFast")
    (out / "tokenizer_config.json").write_text(json.dumps(tc, indent=1, ensure_ascii=False))


def build_merged(base: str | Path, out: str | Path, cfg=None, progress: Callable[[str], None] = print,
                 spec: CircuitSpec | None = None) -> Path:
    """``qgpu build --base``: the circuit of machine ``cfg`` in front of the base's layers, written
    to ``out`` (atomically, layer by layer: memory holds one layer at a time)."""
    from safetensors.torch import save_file
    from transformers import Qwen3_5TextConfig

    from compiler.atomic import atomic_dir
    from compiler.circuit.build import LAYOUT, fingerprint, state_map
    from compiler.circuit.checkpoint import _norm_weight, constant_embedding, fill_layer, layout_json
    from compiler.circuit.execute import Schedule
    from compiler.circuit.gpu import build_spec
    from compiler.machine.config import DEFAULT
    from engine.fast import _Tensors

    base = Path(base)
    if not (base / "config.json").exists():
        from huggingface_hub import snapshot_download  # a hub id: plain from_pretrained-style loading
        base = Path(snapshot_download(str(base)))
    cfg = cfg or DEFAULT
    b = text_config(json.loads((base / "config.json").read_text()))
    W = _Tensors(base, torch.float32)
    progress("computing the circuit")
    spec = spec or build_spec(cfg)
    shape = merged_shape(spec, b)
    H, C = b["hidden_size"], circuit_channels(spec)
    flag, off = C, C + FLAG_CHANNELS
    hidden = off + H
    placed = dataclasses.replace(spec, shape=shape, hidden_size=hidden)
    norms = Norms.of(b, shape, hidden)
    alpha, gain = norms.alpha, norms.gain
    kw = merged_config(spec, b)
    kw["rms_norm_eps"] = norms.merged_eps
    vb = b["vocab_size"]
    end = vb + spec.vocab.index("END")
    base_eos = b.get("eos_token_id")
    mcfg = Qwen3_5TextConfig(**kw, pad_token_id=b.get("pad_token_id"), bos_token_id=b.get("bos_token_id"),
                             eos_token_id=base_eos)
    mcfg.architectures = ["Qwen3_5ForCausalLM"]
    norm_scale = norms.scale
    anchor = placed.anchor
    n_circ = len(spec.layer_types())
    progress(f"merging: {n_circ} circuit layers + {b['num_hidden_layers']} base layers, hidden {C} + 1 + {H}, "
             f"shape {shape}")

    with atomic_dir(out) as tmp, torch.no_grad():
        index: dict[str, str] = {}
        shard: dict[str, torch.Tensor] = {}
        count = [0, 0]

        def put(name: str, t: torch.Tensor) -> None:
            shard[name] = t.detach().to(torch.float32).contiguous().clone()
            count[1] += t.numel()
            if sum(x.numel() for x in shard.values()) > 2 ** 28:
                flush()

        def flush() -> None:
            if shard:
                fname = f"model-{count[0]:05d}.safetensors"
                save_file(dict(shard), str(tmp / fname), metadata={"format": "pt"})
                index.update({k: fname for k in shard})
                shard.clear()
                count[0] += 1

        # embeddings and LM head
        E = torch.zeros(kw["vocab_size"], hidden)
        E[:vb, off:] = W("model.embed_tokens.weight") * gain
        E[:vb, flag] = alpha
        emb_max = float(E[:vb].pow(2).sum(1).max())
        for t, content in spec.embed.items():
            for i, v in content.items():
                E[vb + t, i] += v
        for i, v in constant_embedding(placed).items():
            E[vb:, i] += v
        put("model.embed_tokens.weight", E)
        del E
        head = torch.zeros(kw["vocab_size"], hidden)
        head[:vb, off:] = W("lm_head.weight") if W.has("lm_head.weight") else W("model.embed_tokens.weight")
        for t, row in spec.unembed.items():
            for i, v in row.items():
                head[vb + t, i] += v
        head[vb:, flag] = -LM_MUTE
        put("lm_head.weight", head)
        del head
        circuit_norm = _norm_weight(placed).float()
        final = circuit_norm.clone()
        final[off:] = (1 + W("model.norm.weight")) * norm_scale - 1
        final[flag] = 1 / alpha - 1  # the flag reads 1/RMS after the final norm
        put("model.norm.weight", final)
        # the circuit's mute weight on the flag: every text token's normalised flag at a circuit
        # layer is at least alpha*ANCHOR / max RMS of a base embedding row
        phi_min = alpha * (circuit_norm[flag] + 1) / math.sqrt(emb_max / hidden + kw["rms_norm_eps"])
        mute_flag = -MUTE / float(phi_min)
        for i in range(n_circ):
            layer = _zero_layer(mcfg, i)
            if i < len(spec.layers):
                fill_layer(placed, spec.layers[i], layer, circuit_norm)
                if spec.layers[i].heads:
                    for proj in (layer.linear_attn.in_proj_b, layer.linear_attn.in_proj_z):
                        proj.weight[:, flag] = mute_flag
            for k, v in layer.state_dict().items():
                put(f"model.layers.{i}.{k}", v)
            progress(f"layer {i + 1}/{kw['num_hidden_layers']} (circuit)")
        for j in range(b["num_hidden_layers"]):
            layer = _zero_layer(mcfg, n_circ + j)
            _base_layer(layer, W, f"model.layers.{j}", b, shape, off, anchor, norm_scale, gain, norms.kappa)
            for k, v in layer.state_dict().items():
                put(f"model.layers.{n_circ + j}.{k}", v)
            progress(f"layer {n_circ + j + 1}/{kw['num_hidden_layers']} (base)")
        flush()
        (tmp / "model.safetensors.index.json").write_text(json.dumps(
            {"metadata": {"total_parameters": count[1]}, "weight_map": index}, indent=1))
        mcfg.save_pretrained(tmp)
        eos = ([base_eos] if isinstance(base_eos, int) else list(base_eos or [])) + [end]
        (tmp / "generation_config.json").write_text(json.dumps(
            {"eos_token_id": eos, "pad_token_id": b.get("pad_token_id"), "bos_token_id": b.get("bos_token_id")}))
        _write_tokenizer(base, tmp, spec.vocab, vb)
        placed.meta = {"machine": dataclasses.asdict(cfg), "fingerprint": fingerprint(cfg),
                       "state": state_map(placed, Schedule(slots=cfg.block.max_instrs))}
        (tmp / LAYOUT).write_text(json.dumps({
            **layout_json(placed), "token_format": TOKEN_FORMAT,
            "merge": {"base": str(base), "circuit_channels": C, "flag_channel": flag, "base_channels": [off, hidden],
                      "circuit_layers": n_circ, "base_layers": b["num_hidden_layers"], "base_vocab": vb,
                      "norms": dataclasses.asdict(norms) | {"gain": gain, "flag_value": alpha, "merged_eps": norms.merged_eps}}},
            indent=1))
    progress(f"wrote {out}")
    return Path(out)
