"""Reference interpreter speed: EXEC steps per second on a 16-thread nested loop.

    python benchmarks/interp_speed.py
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from compiler.kernel_compiler import compile_cuda  # noqa: E402
from engine.interpreter import run  # noqa: E402
from engine.launch import build_launch  # noqa: E402

SRC = """extern "C" __global__ void k(unsigned* out, int n) {
    unsigned acc = threadIdx.x;
    for (int i = 0; i < n; i++) for (int j = 0; j < n; j++) acc = acc * 31u + (unsigned)(i ^ j);
    out[threadIdx.x] = acc;
}"""


def main() -> None:
    prog = compile_cuda(SRC, "interp_speed.cu")
    launch = build_launch(prog, 1, 16, {"out": "zeros:16", "n": "40"})
    t0 = time.perf_counter()
    res = run(prog, launch)
    dt = time.perf_counter() - t0
    print(f"{len(res.trace)} EXEC steps in {dt:.3f} s: {len(res.trace) / dt:,.0f} steps/s")


if __name__ == "__main__":
    main()
