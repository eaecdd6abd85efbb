"""Size of the GPU checkpoint for machines with N instructions per block and B ROM blocks (no
weights written).

Counts parameters on the meta device from the config the circuit compiler emits.
Run: python benchmarks/model_size.py [N[:B] ...]   (default: 3:32 4 8; B defaults to the default
checkpoint's ROM, compiler.circuit.build.MODEL_DEFAULT)
"""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import torch  # noqa: E402
from transformers import AutoModelForCausalLM, Qwen3_5TextConfig  # noqa: E402

from compiler.circuit.gpu import build_spec  # noqa: E402
from compiler.circuit.build import MODEL_DEFAULT, model_machine  # noqa: E402


def main(ns: list[tuple[int, int]]) -> None:
    print("| instrs/block | ROM blocks | layers (DeltaNet + zero attention) | hidden | intermediate | key/value heads "
          "| parameters | float32 size |")
    print("|---|---|---|---|---|---|---|---|")
    for n, blocks in ns:
        cfg = model_machine(n, blocks)
        spec = build_spec(cfg)
        kw = spec.config_kwargs()
        with torch.device("meta"):
            model = AutoModelForCausalLM.from_config(Qwen3_5TextConfig(**kw))
        params = sum(p.numel() for p in model.parameters())
        lin = kw["layer_types"].count("linear_attention")
        print(f"| {n} | {blocks} | {kw['num_hidden_layers']} ({lin} + {kw['num_hidden_layers'] - lin}) | {kw['hidden_size']} "
              f"| {kw['intermediate_size']} | {kw['linear_num_key_heads']}/{kw['linear_num_value_heads']} "
              f"| {params / 1e6:.0f} M | {params * 4 / 2**30:.1f} GiB |")


if __name__ == "__main__":
    args = sys.argv[1:] or ["3:32", "4", "8"]
    main([(int(a.partition(":")[0]), int(a.partition(":")[2] or MODEL_DEFAULT.rom_blocks)) for a in args])
