"""The GPU inside a Qwen3.5 base (issue 26): the merged config's shapes and size.

A merged checkpoint is one stock Qwen3.5 config, so every layer — the circuit's and the base's —
has the same head counts, head dimensions, conv kernel and MLP width (``checkpoint.Shape``). The
rule here: start from the base's shape and raise each dimension only as far as the circuit needs
with the base's value heads per key head (``CircuitSpec.needs``: key heads copied as required);
padding the base's layers with zero key/value heads, zero conv taps or zero neurons leaves them
exact. Residual: the circuit's channels, one text-flag channel, then the base's channels; layers:
the circuit's, then the base's; vocabulary: the base's ids unchanged, then the circuit's tokens;
the LM head untied (circuit tokens need LM-head rows that differ from their embeddings).

Built so far: this shape/config rule and the size it implies (``benchmarks/model_size.py
--base``). Not built yet: writing the merged weights (``qgpu build --base``) and ``qgpu
check-merge`` — the open part of issue 26.
"""

from __future__ import annotations

from compiler.circuit.checkpoint import CircuitSpec, Shape

FLAG_CHANNELS = 1
"""Channels between the circuit's and the base's: the text flag (on every base token's
embedding; it mutes the circuit on text and keeps circuit tokens off text positions)."""


def text_config(config: dict) -> dict:
    """The text part of a Qwen3.5 ``config.json``: ``text_config`` of a multimodal checkpoint, or
    the config itself (``Qwen3_5ForCausalLM``)."""
    return config.get("text_config", config)


def merged_shape(spec: CircuitSpec, base: dict) -> Shape:
    """The base's shape, each dimension raised to what the circuit needs (see the module doc).
    A raised ``dk``/``dv`` pads the base's own heads: exact up to the head norm's eps."""
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
