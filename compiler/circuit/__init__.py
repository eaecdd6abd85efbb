"""The circuit compiler: computes the weights of Qwen3.5 layers that *are* the GPU.

Modules, in build order:

* ``space``      — the residual stream as named basis directions (one source of truth).
* ``layers``     — builders for one decoder layer, written "by action" on named directions:
  SwiGLU neurons (thresholds, ANDs, products) and Gated DeltaNet heads (state rows).
* ``checkpoint`` — turns a built circuit into a Qwen3.5 checkpoint directory that plain
  ``transformers`` loads (config.json, model-*.safetensors, tokenizer files).

docs/circuit.md explains the conventions (anchor channel, unit scale, margins).
"""
