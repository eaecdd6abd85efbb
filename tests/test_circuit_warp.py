"""Votes and shuffles in the stock model (compiler/circuit/alu_warp.py).

``tests/circuit_kernels/warp_ops.cu``: 12 threads (three warps, so hardware lanes 4·J + l with
J = 0, 1, 2), every vote and shuffle mode, shuffle widths 4 and 2, sources out of range, a
vote after divergence. Its expected output is written out here from CUDA's definitions; the
interpreter must give it, and the model must predict every token of the interpreter's trace.
"""

from pathlib import Path

import pytest

from circuit_programs import CFG3, check_launch, compile_launch
from engine.interpreter import Interpreter

KERNEL = Path(__file__).parent / "circuit_kernels" / "warp_ops.cu"
IN = [3, -8, 0, 17, 255, -1, 6, 6, 1000, -77, 5, 9]


def _reference() -> list[int]:
    out = []
    for t, v in enumerate(IN):
        base = t & ~3
        warp = range(base, base + 4)
        ballot = lambda pred, lanes: sum(1 << u for u in lanes if pred(IN[u]))  # noqa: E731
        odd = [u for u in warp if IN[u] & 1]
        o = [ballot(lambda x: x > 5, warp),
             int(any(IN[u] < 0 for u in warp)) + 2 * int(all(IN[u] != 0 for u in warp)),
             IN[base + ((t + 3) & 3)],                         # __shfl_sync idx, width 4
             IN[t - 1] if t % 2 >= 1 else v,                   # __shfl_up_sync by 1, width 2
             IN[t + 3] if t % 4 + 3 < 4 else v,                # __shfl_down_sync by 3, width 4
             IN[t ^ 2],                                        # __shfl_xor_sync 2
             ballot(lambda x: x > 0, odd) if v & 1 else 0,
             int(len({IN[u] == 6 for u in warp}) == 1)]
        out += [x & 0xFFFFFFFF for x in o]
    return out


def test_the_interpreter_gives_the_reference():
    prog, launch = compile_launch(KERNEL)
    assert Interpreter(prog, launch, CFG3).run().arrays["out"] == _reference()


@pytest.mark.slow
@pytest.mark.full  # QGPU_FULL=1 only (tests/circuit_programs.py): CI replays samples that use these ops (README.md)
def test_votes_and_shuffles_in_the_model(cfg3_model):
    _, model = cfg3_model
    prog, launch = compile_launch(KERNEL)
    assert check_launch(model, prog, launch) == []
