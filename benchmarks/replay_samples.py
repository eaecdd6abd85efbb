"""Replay of every sample the circuit implements, as a table for docs/status.md: teacher-forced, or
with ``--generate`` generated token by token (every launch stepped together in one batched forward
pass per token, ``engine.model.step_together``), each run stopping at its first departing token.
In both modes the memory decoded from the state must equal the interpreter's with clean margins.

For each sample (a sample that uses what ``compiler.circuit.gpu.unsupported`` lists on the
checkpoint's machine gets a row saying so): prompt and generated tokens, EXEC steps, whether the model predicts every token of
the interpreter's trace (else the first wrong generated token), and the seconds it took.
Run: python benchmarks/replay_samples.py [--model DIR] [--engine fast|hf] [--generate] [--dtype float32|bfloat16]
[--device cpu|cuda] [SAMPLE | FILE.cu ...]
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
from engine.model import GpuModel, step_together  # noqa: E402


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--model", help="checkpoint directory (default: the default checkpoint, built on first use)")
    ap.add_argument("--dtype", default="float32")
    ap.add_argument("--device", default="cpu", help="where the forward passes run: cpu (default) or cuda")
    ap.add_argument("--engine", default="fast", choices=["fast", "hf"])
    ap.add_argument("--generate", action="store_true", help="generate (batched) instead of teacher forcing")
    ap.add_argument("--batch", type=int, default=0, help="with --generate: launches stepped together (default: "
                    "all; 1 for a merged checkpoint, whose live full-attention layers need equal lengths)")
    ap.add_argument("samples", nargs="*", help="sample names or .cu paths (default: every sample)")
    ns = ap.parse_args()
    gpu = GpuModel(str(ensure_checkpoint(ns.model)), ns.dtype, ns.device, engine=ns.engine)
    cfg = gpu.machine
    mode = "generated" if ns.generate else "teacher-forced"
    print(f"| sample | grid x block | prompt tokens | generated tokens | EXEC steps | {ns.dtype} {mode} replay | s |")
    print("|---|---|---|---|---|---|---|")
    pending = []
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
        if ns.generate:
            pending.append((name, h, run, want, res))
            continue
        t0 = time.perf_counter()
        report(name, h, run, want, res, run.force(want), time.perf_counter() - t0)
    if pending:
        t0 = time.perf_counter()
        bads = []
        size = ns.batch or len(pending)
        for i in range(0, len(pending), size):
            group = pending[i:i + size]
            for _, _, run, _, _ in group:
                run.step()
            bads += step_together([p[2] for p in group], [p[3] for p in group], 10**7)
        dt = time.perf_counter() - t0
        for (name, h, run, want, res), bad in zip(pending, bads):
            report(name, h, run, want, res, bad, None)
        n = sum(len(p[2].generated) for p in pending)
        how = "all stepped together" if size >= len(pending) else f"stepped {size} at a time"
        print(f"\n{len(pending)} launches, {n} generated tokens in {dt:.0f} s (prompts included), {how}")


def report(name, h, run, want, res, bad, dt) -> None:
    if bad is None and run.generated != want:
        bad = len(run.generated) - 1
    verdict = "exact" if bad is None else f"differs at token {bad}: {run.generated[bad]} for {want[bad]}"
    if bad is None:
        words = run.memory()
        if not all(w.ok for w in words) or [w.value for w in words[:len(res.memory)]] != \
                [v & 0xFFFFFFFF for v in res.memory]:
            verdict = "tokens exact, memory read-out differs"
    print(f"| {name} | {h.grid}x{h.block} | {len(run.prompt)} | {len(want)} | {len(res.trace)} "
          f"| {verdict} | {'-' if dt is None else f'{dt:.1f}'} |", flush=True)


if __name__ == "__main__":
    main()
