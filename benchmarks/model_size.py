"""Size of the GPU checkpoint for machines with N instructions per block and B ROM blocks (no
weights written).

Counts parameters on the meta device from the config the circuit compiler emits.
Run: python benchmarks/model_size.py [N[:B] ...]   (default: 3:32 4 8; B defaults to the default
checkpoint's ROM, compiler.machine.config.DEFAULT)

With ``--base CONFIG.json`` (a Qwen3.5 ``config.json``, e.g. docs/qwen35/qwen3.5-2b.json): the
base alone and the base merged with the default checkpoint's circuit (``compiler/merge.py``: the
merged shapes, untied LM head; the tied variant for comparison), bfloat16 sizes.
"""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import torch  # noqa: E402
from transformers import AutoModelForCausalLM, Qwen3_5TextConfig  # noqa: E402

from compiler.circuit.gpu import build_spec  # noqa: E402
from compiler.machine.config import DEFAULT, parse_machine  # noqa: E402


def main(machines: list[str]) -> None:
    print("| instrs/block | ROM blocks | layers (DeltaNet + zero attention) | hidden | intermediate | key/value heads "
          "| parameters | float32 size |")
    print("|---|---|---|---|---|---|---|---|")
    for name in machines:
        cfg = parse_machine(name)
        n, blocks = cfg.block.max_instrs, cfg.rom_blocks
        spec = build_spec(cfg)
        kw = spec.config_kwargs()
        with torch.device("meta"):
            model = AutoModelForCausalLM.from_config(Qwen3_5TextConfig(**kw))
        params = sum(p.numel() for p in model.parameters())
        lin = kw["layer_types"].count("linear_attention")
        print(f"| {n} | {blocks} | {kw['num_hidden_layers']} ({lin} + {kw['num_hidden_layers'] - lin}) | {kw['hidden_size']} "
              f"| {kw['intermediate_size']} | {kw['linear_num_key_heads']}/{kw['linear_num_value_heads']} "
              f"| {params / 1e6:.0f} M | {params * 4 / 2**30:.1f} GiB |")


def _params(kw: dict) -> int:
    with torch.device("meta"):
        model = AutoModelForCausalLM.from_config(Qwen3_5TextConfig(**kw))
    return sum(p.numel() for p in model.parameters())


def merged(base_path: str) -> None:
    import json

    from compiler.merge import merged_config, merged_shape, text_config

    base = json.loads(Path(base_path).read_text())
    spec = build_spec(DEFAULT)
    b = {k: v for k, v in text_config(base).items() if not k.startswith("_")}
    s = merged_shape(spec, b)
    print(f"base: {base_path}; circuit: the default checkpoint's machine ({DEFAULT.block.max_instrs} "
          f"instructions per block, {DEFAULT.rom_blocks} blocks)")
    print(f"merged shape: {s.nk} key heads x {s.m} value heads, dk {s.dk}, dv {s.dv}, conv {s.conv}, "
          f"intermediate {s.intermediate}")
    print("| model | layers | hidden | vocab | parameters | bfloat16 size |")
    print("|---|---|---|---|---|---|")
    for name, kw in (("base", b), ("merged, untied (what the merge writes)", merged_config(spec, b)),
                     ("merged, tied (for comparison)", merged_config(spec, b, tied=True))):
        n = _params(kw)
        print(f"| {name} | {kw['num_hidden_layers']} | {kw['hidden_size']} | {kw['vocab_size']} "
              f"| {n / 1e9:.2f} B | {n * 2 / 1e9:.1f} GB |")


if __name__ == "__main__":
    if sys.argv[1:2] == ["--base"]:
        merged(sys.argv[2])
        sys.exit(0)
    args = sys.argv[1:] or ["3:32", "4", "8"]
    main(args)
