"""Assemble a built circuit into a stock Qwen3.5 checkpoint directory.

The output is what plain ``transformers`` loads with ``AutoModelForCausalLM`` and
``AutoTokenizer``: ``config.json`` (a ``qwen3_5_text`` model whose circuit layers are
``linear_attention``, followed by one all-zero ``full_attention`` layer that
``generate()`` needs — docs/qwen35/README.md), ``model-*.safetensors`` (shards), and a word-level
tokenizer whose words are the circuit's token names. No custom code.
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass, field
from pathlib import Path

import torch

from compiler.circuit.layers import ANCHOR, BALLAST_CHANNELS, VAMP, LayerSpec, Lin, ballast
from compiler.circuit.ports import layer_ports, owners
from compiler.circuit.space import Space

CONV = 4  # linear_conv_kernel_dim: taps lag 3, 2, 1, 0 (index 3 = this token)


@dataclass(frozen=True)
class Shape:
    """The per-layer shapes a Qwen3.5 config gives *every* layer (the config is uniform): the
    DeltaNet key heads, value heads per key head, their dimensions, the conv kernel and the MLP
    width. The circuit's own checkpoint uses :meth:`CircuitSpec.own_shape`; a merged checkpoint
    places the same circuit into the shape it shares with its base (``compiler/merge.py``)."""

    nk: int
    m: int
    dk: int
    dv: int
    conv: int
    intermediate: int

    @classmethod
    def of_config(cls, c: dict) -> "Shape":
        return cls(nk=c["linear_num_key_heads"], m=c["linear_num_value_heads"] // c["linear_num_key_heads"],
                   dk=c["linear_key_head_dim"], dv=c["linear_value_head_dim"], conv=c["linear_conv_kernel_dim"],
                   intermediate=c["intermediate_size"])


def key_slots(kh, m: int) -> int:
    """Physical key heads one circuit key head takes when a key head has ``m`` value heads: its
    query and key are copied into each (consecutive), its value heads fill them in order."""
    return max(1, -(-len(kh.values) // m))


@dataclass
class CircuitSpec:
    """Everything the circuit compiler decided, before it becomes tensors."""

    space: Space
    anchor: int
    """Residual index of the anchor channel."""
    vocab: list[str]
    embed: dict[int, Lin]
    """token id -> residual content of its embedding (the anchor is added for every token)."""
    unembed: dict[int, Lin]
    """token id -> LM-head row over the final normalised residual."""
    layers: list[LayerSpec] = field(default_factory=list)
    dk: int = 32
    dv: int = 32
    heads_per_key: int = 1
    meta: dict = field(default_factory=dict)

    pad_pow4: bool = True
    """Pad the hidden size to a power of 4 (at least 256; small test circuits). Off: the
    allocated size, rounded up to 64."""

    shape: Shape | None = None
    """Where the heads and neurons are placed (None: :meth:`own_shape`, the narrowest that holds
    every layer as it is)."""
    hidden_size: int | None = None
    """The residual width when it is wider than the circuit's own (a merged model): the ballast
    then fills the whole width."""

    @property
    def ballast(self) -> list[int]:
        """Residual indices of the ballast channels (group ``ballast``)."""
        idx = list(self.space["ballast"].indices)
        assert len(idx) == BALLAST_CHANNELS, idx
        return idx

    @property
    def hidden(self) -> int:
        if self.hidden_size is not None:
            assert self.hidden_size >= self.space.size, (self.hidden_size, self.space.size)
            return self.hidden_size
        if not self.pad_pow4:
            return -(-self.space.size // 64) * 64
        h = 256
        while h < self.space.size:
            h *= 4
        return h

    def layer_types(self) -> list[str]:
        """A layer without DeltaNet heads is a ``full_attention`` layer with all-zero attention
        weights: it adds exactly 0 and costs almost nothing, where an empty DeltaNet mixer would
        still carry the full (uniform) head dimensions. The last layer is always one: plain
        ``generate()`` needs a full-attention layer (docs/qwen35/README.md); one without
        content is appended when the circuit's last layer has heads."""
        types = ["linear_attention" if L.heads else "full_attention" for L in self.layers]
        return types if types and types[-1] == "full_attention" else types + ["full_attention"]

    def own_shape(self) -> Shape:
        return Shape(nk=max([len(L.heads) for L in self.layers] + [1]), m=self.heads_per_key, dk=self.dk,
                     dv=self.dv, conv=CONV, intermediate=max([len(L.neurons) for L in self.layers] + [1]))

    @property
    def placed(self) -> Shape:
        return self.shape or self.own_shape()

    def key_starts(self, layer: int) -> list[int]:
        """The first physical key head of each of ``layer``'s key heads (in the placed shape)."""
        starts, p = [], 0
        for kh in self.layers[layer].heads:
            starts.append(p)
            p += key_slots(kh, self.placed.m)
        return starts

    def needs(self, m: int) -> Shape:
        """The narrowest shape with ``m`` value heads per key head that holds every layer as it is:
        key heads (with copies), the state rows and columns its heads use, the conv taps, neurons."""
        heads = [kh for L in self.layers for kh in L.heads]
        rows = [r for kh in heads for r in (*kh.q, *kh.k)]
        cols = [c for kh in heads for vh in kh.values for c in (*vh.v, *vh.z, *vh.out)]
        lags = [g for kh in heads for forms in (kh.q, kh.k) for lag, _ in forms.values()
                for g in ((lag,) if isinstance(lag, int) else lag)]
        lags += [g for kh in heads for vh in kh.values for lag, _ in vh.v.values()
                 for g in ((lag,) if isinstance(lag, int) else lag)]
        return Shape(nk=max([sum(key_slots(kh, m) for kh in L.heads) for L in self.layers] + [1]), m=m,
                     dk=max(rows, default=0) + 1, dv=max(cols, default=0) + 1, conv=max(lags, default=0) + 1,
                     intermediate=max([len(L.neurons) for L in self.layers] + [1]))

    def config_kwargs(self) -> dict:
        s = self.placed
        types = self.layer_types()
        return dict(
            vocab_size=len(self.vocab), hidden_size=self.hidden, intermediate_size=s.intermediate,
            num_hidden_layers=len(types), layer_types=types,
            num_attention_heads=1, num_key_value_heads=1, head_dim=8,
            linear_num_key_heads=s.nk, linear_num_value_heads=s.nk * s.m,
            linear_key_head_dim=s.dk, linear_value_head_dim=s.dv, linear_conv_kernel_dim=s.conv,
            max_position_embeddings=1 << 20, tie_word_embeddings=False, rms_norm_eps=1e-6,
            pad_token_id=self.vocab.index("<pad>"), bos_token_id=self.vocab.index("<bos>"),
            eos_token_id=self.vocab.index("END"),
        )


def _norm_weight(spec: CircuitSpec) -> torch.Tensor:
    """RMSNorm weight ``w`` (the layer multiplies by 1 + w): with the RMS at ``ANCHOR``, a value
    channel reads as itself (``ANCHOR − 1``), the anchor as 1 (0), the ballast as 0 (−1)."""
    w = torch.full((spec.hidden,), ANCHOR - 1.0, dtype=torch.float64)
    w[spec.anchor] = 0.0
    w[spec.ballast] = -1.0
    return w


def constant_embedding(spec: CircuitSpec) -> dict[int, float]:
    """What every token's embedding carries besides its own content: the anchor and the ballast
    (:func:`compiler.circuit.layers.ballast`)."""
    return {spec.anchor: ANCHOR, **{i: ANCHOR * k for i, k in zip(spec.ballast, ballast(spec.hidden))}}


def build_model(spec: CircuitSpec, dtype: torch.dtype = torch.float32):
    """A ``Qwen3_5ForCausalLM`` carrying the circuit's weights. Each matrix is summed in float64
    and then stored in ``dtype`` (one matrix at a time, so a large circuit needs little extra memory)."""
    from transformers import AutoModelForCausalLM, Qwen3_5TextConfig
    from transformers.initialization import no_init_weights

    cfg = Qwen3_5TextConfig(**spec.config_kwargs())
    with no_init_weights():  # every weight is set below; random init would only cost time
        model = AutoModelForCausalLM.from_config(cfg, dtype=dtype)
    model.eval()
    with torch.no_grad():
        for p in model.parameters():
            p.zero_()
        norm = _norm_weight(spec)
        E = model.model.embed_tokens.weight
        for t, content in spec.embed.items():
            for i, v in content.items():
                E[t, i] += v
        for i, v in constant_embedding(spec).items():
            E[:, i] += v
        model.model.norm.weight.copy_(norm)
        for t, row in spec.unembed.items():
            for i, v in row.items():
                model.lm_head.weight[t, i] += v
        for L, layer in zip(spec.layers, model.model.layers):
            fill_layer(spec, L, layer, norm)
    return model


def fill_layer(spec: CircuitSpec, L: LayerSpec, layer, norm: torch.Tensor) -> None:
    """Write circuit layer ``L`` into a zeroed ``transformers`` decoder layer of ``spec.placed``."""
    layer.input_layernorm.weight.copy_(norm)
    layer.post_attention_layernorm.weight.copy_(norm)
    _fill_mlp(L, layer.mlp)
    if L.heads:
        _fill_mixer(spec, L, layer.linear_attn)


class _Acc:
    """Collects (row, col, value) entries of one matrix and adds them in one call."""

    def __init__(self, weight: torch.Tensor):
        self.w, self.r, self.c, self.v = weight, [], [], []

    def add(self, row: int, form: dict[int, float], transpose: bool = False) -> None:
        for i, v in form.items():
            self.r.append(i if transpose else row)
            self.c.append(row if transpose else i)
            self.v.append(v)

    def flush(self) -> None:
        if self.v:
            buf = self.w.to(torch.float64)
            buf.index_put_((torch.tensor(self.r), torch.tensor(self.c)),
                           torch.tensor(self.v, dtype=torch.float64), accumulate=True)
            self.w.copy_(buf)


def _fill_mlp(L: LayerSpec, mlp) -> None:
    gate, up, down = _Acc(mlp.gate_proj.weight), _Acc(mlp.up_proj.weight), _Acc(mlp.down_proj.weight)
    for j, n in enumerate(L.neurons):
        gate.add(j, n.gate)
        up.add(j, n.up)
        down.add(j, n.down, transpose=True)
    for acc in (gate, up, down):
        acc.flush()


def check_head(L: LayerSpec, kh, m: int, dk: int, dv: int) -> None:
    """A head that needs more rows, columns or value heads than the config has would silently
    spill into its neighbours' weights: refuse it."""
    if len(kh.values) > m:
        raise ValueError(f"layer {L.index} head {kh.name}: {len(kh.values)} value heads > {m}")
    if max([*kh.q, *kh.k, -1]) >= dk:
        raise ValueError(f"layer {L.index} head {kh.name}: state row {max([*kh.q, *kh.k])} >= {dk}")
    for vh in kh.values:
        if max([*vh.v, *vh.z, *vh.out, -1]) >= dv:
            raise ValueError(f"layer {L.index} value head {vh.name}: column {max([*vh.v, *vh.z, *vh.out])} >= {dv}")


MUTE = 4096.0
"""Pre-activation that closes a gate exactly: sigmoid(−4096) and silu(−4096) are 0 and
softplus(−4096) is 0 in float32 and bfloat16 (so exp(−softplus) is 1); a power of two."""


def readout(nnz: int, dv: int) -> tuple[float, float]:
    """(gate factor, read-out) of a value head whose written rows hold ``nnz`` equal entries.

    The head's RMS normalisation turns each entry into ``sqrt(dv/nnz)``, which the open output
    gate ``silu(z)`` (z = VAMP, scaled by the gate factor) multiplies. The factor makes the
    read-out of an entry a power of two, so the out projection's weights (value / read-out) are
    exact in bfloat16; bfloat16 then rounds ``sqrt(dv/nnz)·z`` to exactly that power of two for
    every nnz the circuit uses (``tests/test_circuit_readout.py``). With VAMP itself the read-out of
    a 32-entry register row was 64·√2, and bfloat16 read nibbles 7 and 14 as 6.97 and 13.94."""
    x = (dv / nnz) ** 0.5
    read = 2.0 ** math.floor(math.log2(x * VAMP))
    return read / (x * VAMP), read


def _fill_mixer(spec: CircuitSpec, L: LayerSpec, la) -> None:
    """The DeltaNet heads of ``L``, placed into ``spec.placed``: key head ``h`` takes the
    physical key heads from ``spec.key_starts`` on (its query and key copied into each), its value
    head ``j`` is physical value head ``start·m + j``."""
    s = spec.placed
    nk, m, dk, dv = s.nk, s.m, s.dk, s.dv
    # the decay exp(g), g = -exp(A_log)·softplus(a + dt_bias): 1 exactly on every token but <bos>
    # (a = 0, softplus(-MUTE) = 0: the state keeps everything), 0 exactly on <bos> (a = 2·MUTE,
    # g = -MUTE): a launch starts from an empty machine whatever ran before it in the context
    la.A_log.fill_(0.0)
    la.dt_bias.fill_(-MUTE)
    la.in_proj_a.weight[:, spec.space["tok.kind"]["BOS"]] = 2 * MUTE
    la.norm.weight.fill_(1.0)
    W, C = _Acc(la.in_proj_qkv.weight), la.conv1d.weight  # rows: q (nk*dk) | k (nk*dk) | v (nk*m*dv)
    Z, O = _Acc(la.in_proj_z.weight), _Acc(la.out_proj.weight)
    kdim = nk * dk
    starts = spec.key_starts(L.index)
    if starts and starts[-1] + key_slots(L.heads[-1], m) > nk:
        raise ValueError(f"layer {L.index}: its key heads need {starts[-1] + key_slots(L.heads[-1], m)} "
                         f"physical key heads of {m} value heads; the shape has {nk}")
    for start, kh in zip(starts, L.heads):
        check_head(L, kh, key_slots(kh, m) * m, dk, dv)
        for h in range(start, start + key_slots(kh, m)):
            for base, forms in ((h * dk, kh.q), (kdim + h * dk, kh.k)):
                for row, (lag, form) in forms.items():
                    _conv_row(W, C, base + row, lag, form)
        for j, vh in enumerate(kh.values):
            hv = start * m + j  # value head index
            for col, (lag, form) in vh.v.items():
                _conv_row(W, C, 2 * kdim + hv * dv + col, lag, form)
            for i, v in vh.beta.items():
                la.in_proj_b.weight[hv, i] += v
            # read_scale is stated for the circuit's own spec.dv columns: the head's RMS spreads
            # over dv columns, so an entry reads sqrt(dv / spec.dv) times more in a wider head
            gate, read = ((1.0, vh.read_scale * (dv / spec.dv) ** 0.5) if vh.read_scale is not None
                          else readout(vh.nnz, dv))
            for col, form in vh.z.items():
                Z.add(hv * dv + col, {i: w * gate for i, w in form.items()})
            scale = 1.0 / read
            for col, form in vh.out.items():
                O.add(hv * dv + col, {i: v * scale for i, v in form.items()}, transpose=True)
    for acc in (W, Z, O):
        acc.flush()


def _conv_row(W: _Acc, C, row: int, lag: int | tuple[int, ...], form: Lin) -> None:
    """One q/k/v channel: projection ``form`` applied to the tokens ``lag`` back (summed by the conv)."""
    K = C.shape[-1]
    for g in (lag,) if isinstance(lag, int) else lag:
        if not 0 <= g < K:
            raise ValueError(f"conv lag {g} outside 0..{K - 1}")
        C[row, 0, K - 1 - g] = 1.0
    W.add(row, form)


def write_tokenizer(vocab: list[str], out: Path) -> None:
    from tokenizers import Tokenizer, decoders, models, pre_tokenizers

    tk = Tokenizer(models.WordLevel(vocab={w: i for i, w in enumerate(vocab)}, unk_token="<unk>"))
    tk.pre_tokenizer = pre_tokenizers.WhitespaceSplit()
    tk.decoder = decoders.WordPiece(prefix="##", cleanup=False)  # decode joins words with spaces
    tk.save(str(out / "tokenizer.json"))
    # tokenizer_class is required: without it a qwen3_5_text config.json makes AutoTokenizer
    # silently build Qwen's BPE tokenizer instead (docs/qwen35/README.md).
    (out / "tokenizer_config.json").write_text(json.dumps({
        "tokenizer_class": "PreTrainedTokenizerFast", "bos_token": "<bos>", "eos_token": "END",
        "pad_token": "<pad>", "unk_token": "<unk>", "model_max_length": 1 << 20}, indent=1))


SHARD = "1GB"
"""Largest ``model-*.safetensors`` shard (``model.safetensors.index.json`` maps every weight)."""


def save_checkpoint(spec: CircuitSpec, out: str | Path, dtype: torch.dtype = torch.float32) -> Path:
    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    model = build_model(spec, dtype)
    # shards of at most SHARD: a tool that edits one layer (the tamper tests) rewrites one shard
    model.save_pretrained(out, safe_serialization=True, max_shard_size=SHARD)
    write_tokenizer(spec.vocab, out)
    (out / "qgpu_layout.json").write_text(json.dumps(layout_json(spec), indent=1))
    return out


def layout_json(spec: CircuitSpec) -> dict:
    """``qgpu_layout.json``: the residual groups, every layer's stages, the groups its weights read
    and write (``ports.layer_ports``) and its key heads, and ``spec.meta`` (machine, state map); a
    merged checkpoint adds its ``merge`` entry."""
    ports = [layer_ports(L, owners(spec.space, L.index)) for L in spec.layers]
    return {"residual": spec.space.table(),
            "layers": [{"index": L.index, "stage": L.stage, "doc": L.doc, "reads": p.reads, "writes": p.writes,
                        "key_heads": [k.name for k in L.heads], "neurons": len(L.neurons)}
                       for L, p in zip(spec.layers, ports)],
            **spec.meta}
