"""Both engines on the same checkpoint, in one run: start-up, generated tokens, teacher forcing.

For each engine (``fast``: engine/fast.py; ``hf``: stock transformers) it loads the checkpoint,
generates a sample's launch one forward pass per token (the first ``--tokens`` generated tokens
after the prompt; median and p90 per token), and teacher-forces the interpreter's whole trace
(tokens per second), then prints the ratios. Both engines' traces are checked against the
interpreter's. Peak RSS is the process's (the second engine's figure includes the first's).

Run: python benchmarks/engine_speed.py [--model DIR] [--dtype float32|bfloat16] [--tokens N] [samples/dot.cu]
"""

import argparse
import resource
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import torch  # noqa: E402

from compiler.circuit.build import ensure_checkpoint  # noqa: E402
from compiler.circuit.protocol import trace_tokens  # noqa: E402
from compiler.kernel_compiler import compile_file  # noqa: E402
from engine.interpreter import Interpreter  # noqa: E402
from engine.launch import build_launch, parse_assignments, read_header  # noqa: E402
from engine.model import GpuModel  # noqa: E402


def measure(engine: str, path: Path, dtype: str, sample: str, tokens: int) -> dict:
    t = time.perf_counter()
    gpu = GpuModel(path, dtype, engine=engine)
    load = time.perf_counter() - t
    prog, h = compile_file(sample, cfg=gpu.machine), read_header(sample)
    launch = build_launch(prog, h.grid, h.block, parse_assignments(h.args), gpu.machine)
    want = trace_tokens(Interpreter(prog, launch, gpu.machine).run().trace)
    run = gpu.start(prog, launch)
    t = time.perf_counter()
    run.step()
    prompt = time.perf_counter() - t
    times = []
    while not run.done and len(run.generated) < tokens + 1:
        t = time.perf_counter()
        run.step()
        times.append(time.perf_counter() - t)
    same = run.generated == want[:len(run.generated)]
    run = gpu.start(prog, launch)
    t = time.perf_counter()
    bad = run.force(want)
    forced = time.perf_counter() - t
    times.sort()
    return {"load": load, "prompt": prompt, "n": len(times), "median": statistics.median(times),
            "p90": times[int(0.9 * (len(times) - 1))], "forced_tps": (len(want) + len(run.prompt)) / forced,
            "exact": same and bad is None, "rss": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 2**20}


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("sample", nargs="?", default="samples/dot.cu")
    ap.add_argument("--model", help="checkpoint directory (default: the default checkpoint, built if needed)")
    ap.add_argument("--dtype", default="float32", choices=["float32", "bfloat16"])
    ap.add_argument("--tokens", type=int, default=40, help="generated tokens timed per engine (default 40)")
    ap.add_argument("--engines", default="fast,hf")
    ns = ap.parse_args()
    path = ensure_checkpoint(ns.model)
    print(f"{path.name}, {ns.sample}, {ns.dtype}, torch {torch.__version__}, {torch.get_num_threads()} threads")
    res = {}
    for e in ns.engines.split(","):
        r = res[e] = measure(e, path, ns.dtype, ns.sample, ns.tokens)
        print(f"  {e:4}: load {r['load']:.2f} s; prompt pass {r['prompt'] * 1000:.0f} ms; generated {r['n']} tokens: "
              f"median {r['median'] * 1000:.2f} ms, p90 {r['p90'] * 1000:.2f} ms; teacher-forced "
              f"{r['forced_tps']:.0f} tokens/s; trace exact: {r['exact']}; peak RSS so far {r['rss']:.2f} GiB")
    if "fast" in res and "hf" in res:
        f, h = res["fast"], res["hf"]
        print(f"  ratio hf/fast: generated token {h['median'] / f['median']:.0f}x, teacher-forced "
              f"{f['forced_tps'] / h['forced_tps']:.1f}x, load {h['load'] / f['load']:.1f}x")


if __name__ == "__main__":
    main()
