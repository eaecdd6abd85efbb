"""Atomics in the stock model: serial blocks, one lane at a time (compiler/isel_atomic.py).

``tests/circuit_kernels/atomic_ops.cu``: 2 CTAs of 6 threads (4 warps, two half full), tickets
from a global counter, a shared counter per CTA, and add/cas/max/min/and/or/xor/exch. Its
expected output is computed here in plain Python: every atomic applies thread after thread
in launch order (warps take turns, lanes in order; docs/machine.md, "Atomics"). The
interpreter must give it, and the model must predict every token of the interpreter's trace.
"""

from pathlib import Path

import pytest

from circuit_programs import CFG3, check_launch, compile_launch
from engine.interpreter import Interpreter

KERNEL = Path(__file__).parent / "circuit_kernels" / "atomic_ops.cu"
IN = [5, -7, 11, 300, 2, 9, 40, -1, 77, 6, 1000, -3]


def _reference() -> tuple[list[int], list[int]]:
    out, acc = [0] * 24, [0, 0, -1, 0, 100, 7, 0, 0]
    shared = [0, 0]
    for i, v in enumerate(IN):           # atomicAdd(&acc[0], v): the old values
        out[i], acc[0] = acc[0], acc[0] + v
    tickets = []
    for i in range(12):                  # atomicAdd(&s, 1), per CTA
        c = i // 6
        tickets.append(shared[c])
        shared[c] += 1
    for i in range(12):                  # atomicCAS(&acc[1], t, t + 1)
        t = i % 6
        old = acc[1]
        if old == t:
            acc[1] = t + 1
        out[12 + i] = tickets[i] * 100 + old
    for i, v in enumerate(IN):
        t = i % 6
        acc[3] = max(acc[3], v)
        acc[4] = min(acc[4], v)
        acc[2] &= ~(1 << t)
        acc[5] |= 1 << (t + 8)
        acc[6] ^= v
        acc[7] = i
    return [x & 0xFFFFFFFF for x in out], [x & 0xFFFFFFFF for x in acc]


def test_the_interpreter_gives_the_reference():
    prog, launch = compile_launch(KERNEL)
    res = Interpreter(prog, launch, CFG3).run()
    assert (res.arrays["out"], res.arrays["acc"]) == _reference()
    assert not any(i.op.value == "atom" for b in prog.blocks for i in b.instrs)  # all expanded
    assert sum(b.serial for b in prog.blocks) == 9


@pytest.mark.slow
@pytest.mark.full  # QGPU_FULL=1 only (tests/circuit_programs.py): CI replays samples that use these ops (README.md)
def test_atomics_in_the_model(cfg3_model):
    _, model = cfg3_model
    prog, launch = compile_launch(KERNEL)
    assert check_launch(model, prog, launch) == []
