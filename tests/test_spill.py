"""Spilling, tested hard: every reference kernel compiled for a machine with only 5 usable registers
and 2 predicates per lane must still give its reference output, or be refused for a
limit (memory, ROM) with a clean error."""

from __future__ import annotations

from dataclasses import replace

import pytest

from conftest import SAMPLES
from test_kernels import CASES, EXPECTED_LIMITS, check_arrays

from compiler.errors import CompileError, LaunchError
from compiler.kernel_compiler import compile_file
from compiler.machine.config import DEFAULT
from compiler.machine.semantics import s32
from engine.interpreter import run
from engine.launch import build_launch, parse_assignments, read_header

SMALL = replace(DEFAULT, regs=6, preds=2)


# kernels the machine refuses at its normal size are checked for that in test_kernels
REFUSED = {key for key, _ in EXPECTED_LIMITS}
SPILL_CASES = [(p, r) for p, r in CASES if f"{p.parent.name}/{p.stem}" not in REFUSED]


@pytest.mark.slow
@pytest.mark.parametrize("path,refs", SPILL_CASES, ids=[f"{p.parent.name}/{p.stem}" for p, _ in SPILL_CASES])
def test_kernel_with_few_registers(path, refs, monkeypatch):
    monkeypatch.setenv("QGPU_CUDA_COMPILER", "nvcc")
    h = read_header(path)
    try:
        prog = compile_file(path, h.kernel, SMALL)
        launch = build_launch(prog, h.grid, h.block, parse_assignments(h.args), SMALL)
    except (CompileError, LaunchError) as e:
        assert "ROM holds" in e.message or "words of memory" in e.message or "not supported" in e.message, e
        return
    raw = run(prog, launch, SMALL).arrays
    got = {p.name: (raw[p.name] if p.unsigned else [s32(v) for v in raw[p.name]]) for p in prog.params if p.is_pointer}
    check_arrays(path, refs, got)


@pytest.mark.slow
def test_spilling_is_exercised_by_the_samples(monkeypatch):
    """The check above means something only if many kernels really spill at this size."""
    monkeypatch.setenv("QGPU_CUDA_COMPILER", "nvcc")
    spilled = 0
    for path in SAMPLES:
        try:
            spilled += compile_file(path, read_header(path).kernel, SMALL).spill_words > 0
        except CompileError:
            pass
    assert spilled >= 10, f"only {spilled} samples spilled with {SMALL.regs - 1} registers"
