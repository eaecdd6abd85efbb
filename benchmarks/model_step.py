"""Step latency of the GPU checkpoint on a sample: one forward pass per generated token.

Prints the prompt (prefill) time, the median and the 90th percentile of the per-token
latency, tokens per launch, and whether the trace equals the interpreter's.
Run: python benchmarks/model_step.py --model DIR [--dtype float32] [--device cpu|cuda] [samples/shift_add.cu]
"""

import argparse
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import torch  # noqa: E402

from compiler.circuit.protocol import trace_tokens  # noqa: E402
from compiler.kernel_compiler import compile_file  # noqa: E402
from engine.interpreter import Interpreter  # noqa: E402
from engine.launch import build_launch, parse_assignments, read_header  # noqa: E402
from engine.model import GpuModel  # noqa: E402


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("sample", nargs="?", default="samples/shift_add.cu")
    ap.add_argument("--model", required=True)
    ap.add_argument("--dtype", default="float32")
    ap.add_argument("--device", default="cpu", help="where the forward passes run: cpu (default) or cuda")
    ns = ap.parse_args()
    gpu = GpuModel(ns.model, ns.dtype, ns.device)
    prog, h = compile_file(ns.sample, cfg=gpu.machine), read_header(ns.sample)
    launch = build_launch(prog, h.grid, h.block, parse_assignments(h.args), gpu.machine)
    want = trace_tokens(Interpreter(prog, launch, gpu.machine).run().trace)
    run = gpu.start(prog, launch)
    times = []
    while not run.done and len(run.generated) < len(want) + 5:
        t = time.perf_counter()
        run.step()
        times.append(time.perf_counter() - t)
    prefill, steps = times[0], sorted(times[1:])
    print(f"{ns.sample}: torch {torch.__version__}, {torch.get_num_threads()} threads, {ns.dtype}")
    print(f"  prompt {len(run.prompt)} tokens: {prefill:.2f} s (first forward pass, with the first token)")
    print(f"  generated {len(run.generated)} tokens; per token: median {statistics.median(steps) * 1000:.0f} ms, "
          f"p90 {steps[int(0.9 * (len(steps) - 1))] * 1000:.0f} ms")
    print(f"  trace equals the interpreter's: {run.generated == want}")


if __name__ == "__main__":
    main()
