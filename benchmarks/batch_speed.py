"""Generated tokens per second against batch size on the fast engine (issue 25, item 3).

B copies of one sample's launch are generated together (``engine.model.step_together``: one
batched forward pass per token for all unfinished launches), for B = 1, 2, 4, ...; every token is
checked against the interpreter's trace. Prints, per B, the wall time of the batched generation
(prompts excluded; one untimed warm-up first), the generated tokens of all launches per second, and the speed-up over B = 1,
all measured in this one run.

Run: python benchmarks/batch_speed.py [--model DIR] [--dtype float32|bfloat16] [--batches 1,2,4,8,16] [samples/dot.cu]
"""

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from compiler.circuit.build import ensure_checkpoint  # noqa: E402
from compiler.circuit.protocol import trace_tokens  # noqa: E402
from compiler.kernel_compiler import compile_file  # noqa: E402
from engine.interpreter import Interpreter  # noqa: E402
from engine.launch import build_launch, parse_assignments, read_header  # noqa: E402
from engine.model import GpuModel, step_together  # noqa: E402


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("sample", nargs="?", default="samples/dot.cu")
    ap.add_argument("--model", help="checkpoint directory (default: the default checkpoint)")
    ap.add_argument("--dtype", default="float32", choices=["float32", "bfloat16"])
    ap.add_argument("--batches", default="1,2,4,8,16")
    args = ap.parse_args()

    gpu = GpuModel(ensure_checkpoint(args.model, progress=print), args.dtype)
    h = read_header(args.sample)
    prog = compile_file(args.sample, h.kernel, gpu.machine)
    launch = build_launch(prog, h.grid, h.block, parse_assignments(h.args), gpu.machine)
    want = trace_tokens(Interpreter(prog, launch, gpu.machine).run().trace)
    print(f"{args.sample}: {len(want)} generated tokens per launch; engine fast, {args.dtype}")
    print("| launches together | wall time | generated tokens/s (all launches) | vs 1 |")
    print("|---|---|---|---|")
    warm = [gpu.start(prog, launch) for _ in range(2)]  # untimed: first calls allocate and compile
    for r in warm:
        r.step()
    step_together(warm, [want] * 2, 10 ** 6)
    base = None
    for b in (int(x) for x in args.batches.split(",")):
        runs = [gpu.start(prog, launch) for _ in range(b)]
        for r in runs:
            r.step()  # the prompt
        t = time.perf_counter()
        bad = step_together(runs, [want] * b, 10 ** 6)
        wall = time.perf_counter() - t
        if any(x is not None for x in bad) or any(r.generated != want for r in runs):
            sys.exit(f"batch {b}: a launch departed from the interpreter's trace")
        rate = b * (len(want) - 1) / wall  # the first token came with the prompt
        base = base or rate
        print(f"| {b} | {wall:.2f} s | {rate:.0f} | {rate / base:.1f}x |")


if __name__ == "__main__":
    main()
