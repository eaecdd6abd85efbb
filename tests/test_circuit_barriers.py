"""Barriers in the stock model (compiler/circuit/barriers.py): lanes wait, BAR tokens release.

``tests/circuit_kernels/barrier_rounds.cu``: two CTAs of 6 threads (4 warps, two half full),
six releases per CTA (the parity flips every time), one thread that exits before the first
barrier. Its expected output is computed here in plain Python; the interpreter must give it,
and the model must predict every token of the interpreter's trace (teacher forcing),
``BAR.c.p`` release tokens included.
"""

from pathlib import Path

import pytest

from circuit_programs import CFG3, check_launch, compile_launch
from compiler.circuit.protocol import trace_tokens
from engine.interpreter import Interpreter

KERNEL = Path(__file__).parent / "circuit_kernels" / "barrier_rounds.cu"
IN = [5, -7, 11, 300, 2, 9, 40, -1, 77, 6, 1000, -3]


def _reference() -> list[int]:
    out = [0] * 12
    for c in range(2):
        alive = [t for t in range(6) if not (c == 1 and t == 2)]
        x = {t: IN[c * 6 + t] for t in alive}
        for k in range(3):
            s = dict(x)
            x = {t: x[t] + s[3 if c == 1 and (t + 1) % 6 == 2 else (t + 1) % 6] * (k + 1) for t in alive}
        for t in alive:
            out[c * 6 + t] = x[t] & 0xFFFFFFFF
    return out


def test_the_interpreter_gives_the_reference_and_releases_six_times():
    prog, launch = compile_launch(KERNEL)
    res = Interpreter(prog, launch, CFG3).run()
    assert res.arrays["out"] == _reference()
    bars = [t for t in trace_tokens(res.trace) if t.startswith("BAR.")]
    assert bars == [f"BAR.{c}.{n % 2}" for n in range(1, 7) for c in (0, 1)]


@pytest.mark.slow
@pytest.mark.full  # QGPU_FULL=1 only (tests/circuit_programs.py): CI replays samples that use these ops (README.md)
def test_barriers_in_the_model(cfg3_model):
    _, model = cfg3_model
    prog, launch = compile_launch(KERNEL)
    assert check_launch(model, prog, launch) == []
