"""The one straight-line sample that needs a larger machine than the other model tests: ``div_var``.

Its divisions are expanded into multiply sequences (``compiler/isel_div.py``) that need more ROM
blocks than a 3-instruction machine has, so there the kernel keeps native ``div``/``rem``, which
the circuit does not implement. On a 4-instruction machine it is expanded and runs on the model.
The checkpoint is built and replayed by the CLI in subprocesses (each frees its memory on exit);
expected values come from the reference interpreter.
"""

import json
import shutil
import subprocess
import sys

import pytest

pytestmark = pytest.mark.model

SAMPLE = "samples/div_var.cu"


def _cli(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "app.cli", *args], capture_output=True, text=True, timeout=1500)


def test_div_var_replays_exactly_on_a_four_instruction_machine(tmp_path):
    ckpt = tmp_path / "gpu4"
    try:
        r = _cli("build", "--out", str(ckpt), "--max-instrs", "4")
        assert r.returncode == 0, r.stderr[-3000:]
        r = _cli("run", SAMPLE, "--json", "--backend", "model", "--model", str(ckpt), "--check-replay",
                 "--teacher-forced")
    finally:  # 7 GB; pytest keeps the temporary folders of earlier runs
        shutil.rmtree(ckpt, ignore_errors=True)
    assert r.returncode == 0, r.stderr[-3000:]
    got = json.loads(r.stdout)
    ref = json.loads(_cli("run", SAMPLE, "--json").stdout)
    assert got["replay"] == "exact"
    assert got["arrays"] == ref["arrays"]
