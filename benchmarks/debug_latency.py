"""Keypress-to-repaint latency of qgpu-debug's step key on the model, and how fast the UI answers
another key while a step runs (it must not freeze: steps run in a worker thread).

    python benchmarks/debug_latency.py --model /tmp/ck3 [--kernel samples/divergence_nested.cu] [--steps 30]

The app runs headless at 120x40 (Textual still composes every frame). For each press of ``s``:
from the key press to the first screen refresh after the new frame is applied. While one more
step runs, ``x`` (hex toggle) is pressed: from that press to the refresh that shows it.
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--model", default="/tmp/ck3")
    ap.add_argument("--kernel", default="samples/divergence_nested.cu")
    ap.add_argument("--dtype", default="float32")
    ap.add_argument("--steps", type=int, default=30)
    ns = ap.parse_args()
    asyncio.run(run(ns))


async def run(ns) -> None:
    import torch

    from app.debugger.app import DebugApp
    from app.debugger.backends import ModelBackend
    from app.debugger.session import Kernel, Session
    from app.launching import launch_for
    from engine.model import GpuModel

    gpu = GpuModel(ns.model, ns.dtype)
    k = launch_for(ns.kernel, None, None, None, [], gpu.machine)
    kernel = Kernel(k.program, k.launch, gpu.machine, Path(ns.kernel).name, k.args, k.grid, k.block)
    session = Session(ModelBackend(gpu, k.program, k.launch), kernel)
    marks: dict[str, float] = {}

    class Timed(DebugApp):
        CSS_PATH = str(Path(__file__).resolve().parents[1] / "app" / "debugger" / "debugger.tcss")  # Textual resolves it beside the subclass

        def _show(self, f):
            super()._show(f)
            self.call_after_refresh(lambda: marks.__setitem__("frame", time.perf_counter()))

        def watch_hex(self, value: bool) -> None:
            self.call_after_refresh(lambda: marks.__setitem__("hex", time.perf_counter()))

    app = Timed(lambda p: session, watch=False, show_timing=False)
    step_lat, pass_s, ui_lat = [], [], []
    async with app.run_test(size=(120, 40)) as pilot:
        await app.workers.wait_for_complete()
        await pilot.pause()
        for i in range(ns.steps):
            marks.clear()
            t0 = time.perf_counter()
            await pilot.press("s")
            if i % 3 == 2:  # a second key while the forward pass runs
                t1 = time.perf_counter()
                await pilot.press("x")
                while "hex" not in marks:
                    await asyncio.sleep(0.001)
                ui_lat.append(marks["hex"] - t1)
            while "frame" not in marks:
                await asyncio.sleep(0.001)
            step_lat.append(marks["frame"] - t0)
            await app.workers.wait_for_complete()
            await pilot.pause()
        # the forward pass alone, for comparison (same session, no UI)
        for _ in range(ns.steps):
            t = time.perf_counter()
            session.backend.forward()
            pass_s.append(time.perf_counter() - t)

    def q(xs, p):
        xs = sorted(xs)
        return xs[min(len(xs) - 1, int(p * len(xs)))]

    print(f"machine: {torch.get_num_threads()} torch threads; model {Path(ns.model).name} {ns.dtype}; "
          f"kernel {Path(ns.kernel).name}; {ns.steps} steps")
    print(f"step key -> repaint: median {statistics.median(step_lat) * 1000:.0f} ms, p90 {q(step_lat, .9) * 1000:.0f} ms, "
          f"max {max(step_lat) * 1000:.0f} ms")
    print(f"forward pass alone:  median {statistics.median(pass_s) * 1000:.0f} ms")
    if ui_lat:
        print(f"another key during a step -> repaint: median {statistics.median(ui_lat) * 1000:.0f} ms, "
              f"max {max(ui_lat) * 1000:.0f} ms ({len(ui_lat)} presses)")


if __name__ == "__main__":
    main()
