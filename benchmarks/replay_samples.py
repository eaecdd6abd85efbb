"""Teacher-forced replay of every sample the circuit implements, as a table for docs/status.md.

For each sample (a sample that uses what ``compiler.circuit.gpu.unsupported`` lists on the
checkpoint's machine gets a row saying so): prompt and generated tokens, EXEC steps, whether the model predicts every token of
the interpreter's trace (else the first wrong generated token), and the seconds it took.
Run: python benchmarks/replay_samples.py [--model DIR] [--dtype float32|bfloat16] [--device cpu|cuda] [SAMPLE | FILE.cu ...]
(a name is a file of samples/; any other kernel with a launch header, e.g. tests/suite3/*.cu, is
given by its path).
"""

import argparse
import glob
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from compiler.circuit.build import ensure_checkpoint  # noqa: E402
from compiler.circuit.gpu import unsupported  # noqa: E402
from compiler.circuit.protocol import trace_tokens  # noqa: E402
from compiler.errors import QgpuError  # noqa: E402
from compiler.kernel_compiler import compile_file  # noqa: E402
from engine.interpreter import Interpreter  # noqa: E402
from engine.launch import build_launch, parse_assignments, read_header  # noqa: E402
from engine.model import GpuModel  # noqa: E402


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--model", help="checkpoint directory (default: the default checkpoint, built on first use)")
    ap.add_argument("--dtype", default="float32")
    ap.add_argument("--device", default="cpu", help="where the forward passes run: cpu (default) or cuda")
    ap.add_argument("samples", nargs="*", help="sample names or .cu paths (default: every sample)")
    ns = ap.parse_args()
    gpu = GpuModel(str(ensure_checkpoint(ns.model)), ns.dtype, ns.device)
    cfg = gpu.machine
    print(f"| sample | grid x block | prompt tokens | generated tokens | EXEC steps | {ns.dtype} replay | s |")
    print("|---|---|---|---|---|---|---|")
    files = [n if n.endswith(".cu") else f"samples/{n}.cu" for n in ns.samples] or sorted(glob.glob("samples/*.cu"))
    for f in files:
        name = Path(f).stem if Path(f).parent.name == "samples" else f.removesuffix(".cu")
        h = read_header(f)

        def skipped(verdict: str) -> None:
            print(f"| {name} | {h.grid}x{h.block} | - | - | - | {verdict} | - |", flush=True)

        try:  # the compiler, the interpreter and the circuit's launch limits (e.g. its 16 parameters)
            prog = compile_file(f, h.kernel, cfg)
            launch = build_launch(prog, h.grid, h.block, parse_assignments(h.args), cfg)
            res = Interpreter(prog, launch, cfg).run()
            missing = unsupported(prog, launch)
            run = None if missing else gpu.start(prog, launch)
        except QgpuError as e:
            skipped(f"refused: {str(e).splitlines()[0]}")
            continue
        if missing:
            skipped(f"not on the model: {', '.join(missing)}")
            continue
        want = trace_tokens(res.trace)
        t0 = time.perf_counter()
        bad = run.force(want)
        dt = time.perf_counter() - t0
        verdict = "exact" if bad is None else f"differs at token {bad}: {run.generated[bad]} for {want[bad]}"
        print(f"| {name} | {h.grid}x{h.block} | {len(run.prompt)} | {len(want)} | {len(res.trace)} "
              f"| {verdict} | {dt:.1f} |", flush=True)


if __name__ == "__main__":
    main()
