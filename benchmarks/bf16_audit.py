"""Where the circuit is not exact in bfloat16, found by running each sublayer in both dtypes.

bfloat16 holds 8 significant bits; the circuit is exact in bfloat16 only where every number the
bfloat16 model rounds is representable, or its rounding cannot change a decision. This script
teacher-forces a sample's interpreter trace through the **float32** checkpoint in one forward
pass. Read-only hooks take each sublayer's float32 input, round it to bfloat16 and run a
bfloat16 copy of the sublayer (the DeltaNet mixer or the MLP) on it: an output channel that
differs from the float32 output by more than bfloat16's own rounding of it (plus 0.05) is a
*local* defect of that sublayer — its inputs were right. The residual after each layer is also
checked: a channel bfloat16 cannot hold (e.g. a column sum above 256) is reported there. Rows
are grouped by (layer, where, residual group) with their count and first position.

The hooks only read and compare; the model's own output is untouched. Expect rows for every
sample that multiplies (the multiplier's column sums; docs/circuit.md, "Multiplies").

Run: python benchmarks/bf16_audit.py [--model DIR] [--limit N] SAMPLE ...
(``QGPU_AUDIT_ABS=0.004`` tightens the tolerance, e.g. to see read-outs a few hundredths off.)
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

import torch

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from compiler.circuit.build import ensure_checkpoint  # noqa: E402
from compiler.circuit.protocol import trace_tokens  # noqa: E402
from compiler.kernel_compiler import compile_file  # noqa: E402
from engine.interpreter import Interpreter  # noqa: E402
from engine.launch import build_launch, parse_assignments, read_header  # noqa: E402
from engine.model import GpuModel  # noqa: E402

BF16 = torch.bfloat16
ABS = float(os.environ.get("QGPU_AUDIT_ABS", "0.05"))
"""A sublayer output may differ by bfloat16's rounding of it (2^-8 relative) plus this."""
REL = 2e-4
"""The residual: a channel whose bfloat16 rounding moves it by more than this, relative to
max(1, |x|), cannot be held (float32 noise is ~1e-5 relative)."""


def _bf16_copy(module: torch.nn.Module, config) -> torch.nn.Module:
    """A bfloat16 twin of a sublayer (a fresh module of the same class: no hooks come along)."""
    args = (config, module.layer_idx) if hasattr(module, "layer_idx") else (config, config.intermediate_size)
    low = type(module)(*args)
    low.load_state_dict(module.state_dict())
    return low.to(BF16).eval()


class Audit:
    def __init__(self, gpu: GpuModel):
        self.gpu = gpu
        self._names: dict[int, list[str]] = {}
        self.rows: dict[tuple, list] = {}

    def names(self, layer: int) -> list[str]:
        """Channel -> the residual group it holds at ``layer`` (groups share channels over layers)."""
        if layer not in self._names:
            from compiler.circuit.space import alive_rows

            out = [""] * self.gpu.model.config.hidden_size
            for g in alive_rows(self.gpu.layout["residual"], layer):
                for k in range(g["width"]):
                    out[g["first"] + k] = g["group"]
            self._names[layer] = out
        return self._names[layer]

    def _note(self, layer: int, what: str, bad: torch.Tensor, want: torch.Tensor, got: torch.Tensor | None) -> None:
        """bad: (positions, channels) mask; one row per residual group: count, first position, values."""
        for pos, c in bad.nonzero().tolist():
            key = (layer, what, self.names(layer)[c] or f"ch{c}")
            row = self.rows.get(key)
            if row is None:
                self.rows[key] = [1, pos, float(want[pos, c]), None if got is None else float(got[pos, c])]
            else:
                row[0] += 1

    def _compare(self, layer: int, what: str, module, args: dict, want: torch.Tensor) -> None:
        low = _bf16_copy(module, self.gpu.model.config)
        with torch.no_grad():
            got = low(**args)
        got = (got[0] if isinstance(got, tuple) else got)[0].double()
        want = want[0].double()
        bad = (got - want).abs() > ABS + want.abs() / 256
        self._note(layer, what, bad, want, got)

    def hooks(self, i: int, layer) -> list:
        def mixer(mod, _args, kwargs, output):
            x = kwargs["hidden_states"].to(BF16)
            self._compare(i, "mixer", mod, {"hidden_states": x, "attention_mask": kwargs.get("attention_mask")}, output)

        def mlp(mod, args, output):
            self._compare(i, "mlp", mod, {"x": args[0].to(BF16)}, output)

        def residual(_mod, _args, output):
            h = (output[0] if isinstance(output, tuple) else output)[0].double()
            err = (h.to(BF16).double() - h).abs()
            self._note(i, "residual", err > REL * h.abs().clamp(min=1.0), h, h.to(BF16).double())

        hs = [layer.mlp.register_forward_hook(mlp), layer.register_forward_hook(residual)]
        if hasattr(layer, "linear_attn"):
            hs.append(layer.linear_attn.register_forward_hook(mixer, with_kwargs=True))
        return hs

    def run(self, tokens: list[str]) -> None:
        layers = self.gpu.model.model.layers
        handles = [h for i, layer in enumerate(layers) for h in self.hooks(i, layer)]
        try:
            ids = torch.tensor([self.gpu.ids(tokens)])
            with torch.no_grad():
                self.gpu.model(input_ids=ids)
        finally:
            for h in handles:
                h.remove()


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--model", help="checkpoint directory (default: the default checkpoint)")
    ap.add_argument("--limit", type=int, default=40, help="rows to print per sample")
    ap.add_argument("samples", nargs="+", help="sample names (samples/NAME.cu) or .cu paths")
    ns = ap.parse_args()
    gpu = GpuModel(str(ensure_checkpoint(ns.model)), "float32", engine="hf")  # it hooks transformers modules
    for name in ns.samples:
        f = name if name.endswith(".cu") else f"samples/{name}.cu"
        h = read_header(f)
        prog = compile_file(f, h.kernel, gpu.machine)
        launch = build_launch(prog, h.grid, h.block, parse_assignments(h.args), gpu.machine)
        run = gpu.start(prog, launch)
        trace = trace_tokens(Interpreter(prog, launch, gpu.machine).run().trace)
        tokens = run.prompt + trace[:-1]
        audit = Audit(gpu)
        audit.run(tokens)
        first = min((r[1] for r in audit.rows.values()), default=None)
        print(f"## {Path(f).stem}: {len(tokens)} positions, {len(audit.rows)} inexact places"
              + (f", first at position {first} ({tokens[first]}, generated token {first - len(run.prompt) + 1})"
                 if first is not None else ""))
        if audit.rows:
            print("| layer | where | residual group | count | first position (token) | float32 | bfloat16 |")
            print("|---|---|---|---|---|---|---|")
            for (layer, what, group), (n, pos, want, got) in sorted(audit.rows.items(),
                                                                     key=lambda kv: (kv[1][1], kv[0]))[:ns.limit]:
                print(f"| {layer} | {what} | {group} | {n} | {pos} ({tokens[pos]}) | {want:.6g} | {got:.6g} |")
        print(flush=True)


if __name__ == "__main__":
    main()
