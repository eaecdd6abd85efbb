"""The interpreter, and the Python references, against what real NVIDIA GPUs computed.

Recordings are ``tests/hw/recorded/*.json``, written by ``tests/hw/record.py`` on
a machine with a GPU (see tests/hw/README.md). Every (recording, kernel) pair is
two tests:

* ``test_interpreter_matches_hardware``: ``qgpu run KERNEL --json`` with the launch
  exactly as recorded must give the recorded arrays; a kernel that
  ``tests/test_kernels.py`` lists as beyond the machine (``EXPECTED_LIMITS``, for
  nvcc) must instead be refused with that message, as in test_kernels.
* ``test_reference_matches_hardware``: the kernel's plain-Python reference (the
  expected values of tests/test_kernels.py) must agree with the hardware too, so
  that those references are checked against a third, independent source.

``QGPU_HW_RECORDED_DIR`` points the tests at another directory of recordings.
"""

from __future__ import annotations

import hashlib
import json
import os
from pathlib import Path

import pytest
from conftest import ROOT
from kernel_refs import parse_header
from test_kernels import COLLECTIONS, EXPECTED_LIMITS, assert_refused, check_arrays, expected_limit

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


def _path(recording: Path, stem: str, result: dict) -> Path:
    path = ROOT / result.get("file", f"samples/{stem}.cu")
    assert path.exists(), (f"{recording.name} records {stem}, but {path} no longer exists: "
                           f"re-record, or delete the entry from {recording}")
    return path


def _changed(path: Path, result: dict, device: str, stem: str) -> str:
    sha = result.get("source_sha256")
    if sha and sha != hashlib.sha256(path.read_text().encode()).hexdigest():
        return (f"\n(note: {path.name} has changed since it was recorded on {device}; "
                "re-record with tests/hw/record.py --only " + stem + ")")
    return ""


def _key(path: Path) -> str:
    return f"{path.parent.name}/{path.stem}"


if CASES:  # no recordings: nothing to collect (not even a skipped test)

    @pytest.mark.parametrize("recording, device, stem, result", CASES)
    def test_interpreter_matches_hardware(recording, device, stem, result, capsys):
        path = _path(recording, stem, result)
        rc = main(_argv(path, result))
        out, err = capsys.readouterr()
        limit = expected_limit(path, "nvcc")
        if limit is not None:  # beyond the machine: refused, as tests/test_kernels.py expects
            assert_refused(limit, rc, out, err)
            return
        assert rc == 0, f"qgpu run failed on the launch recorded on {device}:\n{err}"
        got = json.loads(out)["arrays"]
        assert got == result["arrays"], (
            f"{stem}: interpreter differs from {device} ({recording.name}){_changed(path, result, device, stem)}\n"
            + "\n".join(f"  {name}: interpreter {got.get(name)} vs hardware {want}"
                        for name, want in result["arrays"].items() if got.get(name) != want))

    @pytest.mark.parametrize("recording, device, stem, result", CASES)
    def test_reference_matches_hardware(recording, device, stem, result):
        path = _path(recording, stem, result)
        refs = COLLECTIONS[path.parent.name][1]
        if stem not in refs:  # only kernels beyond the machine may lack a reference (test_kernels)
            assert any(k == _key(path) for k, _ in EXPECTED_LIMITS), f"{stem}: no Python reference"
            return
        grid, block, kernel, args = parse_header(str(path))
        assert (grid, block) == (result["grid"], result["block"]), \
            f"{stem}: header launch {grid}x{block}, recorded {result['grid']}x{result['block']}"
        try:
            check_arrays(path, refs, result["arrays"])
        except AssertionError as e:
            raise AssertionError(f"Python reference differs from {device} ({recording.name}): {e}"
                                 f"{_changed(path, result, device, stem)}") from None
