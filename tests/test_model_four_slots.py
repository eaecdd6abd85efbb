"""The samples that need a larger machine than the other model tests: ``div_var``, ``gcd`` and
``switch_case``.

Their divisions are expanded into multiply sequences (``compiler/isel_div.py``) that need more ROM
blocks than the tests' 3-instruction, 32-block machine has, so there the kernels keep native
``div``/``rem``, which the circuit does not implement. On the default checkpoint's machine
(``compiler.circuit.build.DEFAULT``: 4 instructions, 60 blocks; ``switch_case`` needs 34)
they are expanded and run on the model. The checkpoint
is built and replayed by the CLI in subprocesses (each frees its memory on exit); expected values
come from the reference interpreter.
"""

import json
import shutil
import subprocess
import sys

import pytest

pytestmark = [pytest.mark.model, pytest.mark.full]
"""QGPU_FULL=1 only: building the 9 GB checkpoint and replaying two long launches on it (div_var
alone is 1939 generated tokens) do not fit CI's time budget (README.md, "What CI runs on the model")."""

SAMPLES = ("samples/div_var.cu", "samples/gcd.cu", "samples/switch_case.cu")


def _cli(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "app.cli", *args], capture_output=True, text=True, timeout=1500)


def test_divisions_replay_exactly_on_the_default_machine(tmp_path):
    ckpt = tmp_path / "gpu4"
    runs = {}
    try:
        r = _cli("build", "--out", str(ckpt))  # the default machine
        assert r.returncode == 0, r.stderr[-3000:]
        for sample in SAMPLES:
            runs[sample] = _cli("run", sample, "--json", "--backend", "model", "--model", str(ckpt), "--check-replay",
                                "--teacher-forced")
    finally:  # 9 GB; pytest keeps the temporary folders of earlier runs
        shutil.rmtree(ckpt, ignore_errors=True)
    for sample, r in runs.items():
        assert r.returncode == 0, r.stderr[-3000:]
        got = json.loads(r.stdout)
        ref = json.loads(_cli("run", sample, "--json").stdout)
        assert got["replay"] == "exact", sample
        assert got["arrays"] == ref["arrays"], sample
