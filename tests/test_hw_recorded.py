"""The interpreter against what real NVIDIA GPUs computed for the samples.

Recordings are ``tests/hw/recorded/*.json``, written by ``tests/hw/record.py`` on
a machine with a GPU (see tests/hw/README.md). Every (recording, sample) pair is
one test: ``qgpu run SAMPLE --json`` with the launch exactly as recorded must
give the recorded arrays. With no recordings this module collects nothing.

``QGPU_HW_RECORDED_DIR`` points the tests at another directory of recordings.
"""

from __future__ import annotations

import hashlib
import json
import os
from pathlib import Path

import pytest
from conftest import ROOT

from app.cli import main

RECORDED_DIR = Path(os.environ.get("QGPU_HW_RECORDED_DIR") or ROOT / "tests" / "hw" / "recorded")


def _cases() -> list:
    cases = []
    for rec in sorted(RECORDED_DIR.glob("*.json")):
        data = json.loads(rec.read_text())
        for stem, result in sorted(data.get("results", {}).items()):
            cases.append(pytest.param(rec, data.get("device", rec.stem), stem, result,
                                      id=f"{rec.stem}/{stem}"))
    return cases


CASES = _cases()


def _argv(path: Path, result: dict) -> list[str]:
    argv = ["run", str(path), "--json", "--grid", str(result["grid"]), "--block", str(result["block"])]
    if result.get("kernel"):
        argv += ["--kernel", result["kernel"]]
    return argv + list(result["args"])


if CASES:  # no recordings: nothing to collect (not even a skipped test)

    @pytest.mark.parametrize("recording, device, stem, result", CASES)
    def test_interpreter_matches_hardware(recording, device, stem, result, capsys):
        path = ROOT / result.get("file", f"samples/{stem}.cu")
        assert path.exists(), (f"{recording.name} records {stem}, but {path} no longer exists: "
                               f"re-record, or delete the entry from {recording}")
        rc = main(_argv(path, result))
        out, err = capsys.readouterr()
        assert rc == 0, f"qgpu run failed on the launch recorded on {device}:\n{err}"
        got = json.loads(out)["arrays"]
        note = ""
        sha = result.get("source_sha256")
        if sha and sha != hashlib.sha256(path.read_text().encode()).hexdigest():
            note = (f"\n(note: {path.name} has changed since it was recorded on {device}; "
                    "re-record with tests/hw/record.py --only " + stem + ")")
        assert got == result["arrays"], (
            f"{stem}: interpreter differs from {device} ({recording.name}){note}\n"
            + "\n".join(f"  {name}: interpreter {got.get(name)} vs hardware {want}"
                        for name, want in result["arrays"].items() if got.get(name) != want))
