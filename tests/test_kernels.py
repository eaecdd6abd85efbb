"""Every kernel with a plain-Python reference, through `qgpu run --json`, with nvcc and with clang.

Two independent collections: samples/*.cu (references in tests/kernel_refs.py)
and tests/suite/*.cu (a second batch written apart, references in tests/suite/refs.py).
"""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path

import pytest

from conftest import ROOT, SAMPLES, require_clang
from kernel_refs import REFS as SAMPLE_REFS
from kernel_refs import parse_header

from app.cli import main

SUITE = ROOT / "tests" / "suite"


def _load_suite_refs() -> dict:
    spec = importlib.util.spec_from_file_location("suite_refs", SUITE / "refs.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod.REFS


COLLECTIONS = {"samples": (SAMPLES, SAMPLE_REFS), "suite": (sorted(SUITE.glob("*.cu")), _load_suite_refs())}
CASES = [(path, refs) for paths, refs in COLLECTIONS.values() for path in paths]
IDS = [f"{path.parent.name}/{path.stem}" for path, _ in CASES]


def _run(path: Path, capsys) -> dict:
    rc = main(["run", str(path), "--json"])
    out, err = capsys.readouterr()
    assert rc == 0, err
    return json.loads(out)


def _check(path: Path, refs: dict, capsys) -> None:
    grid, block, _kernel, args = parse_header(str(path))
    want = refs[path.stem]({k: (list(v) if isinstance(v, list) else v) for k, v in args.items()}, grid, block)
    got = _run(path, capsys)["arrays"]
    assert set(got) == set(want), f"pointer parameters differ: {sorted(got)} vs {sorted(want)}"
    for name in want:
        assert got[name] == want[name], f"{path.stem}: array {name!r}"


@pytest.mark.parametrize("name", COLLECTIONS)
def test_every_kernel_has_a_reference(name):
    paths, refs = COLLECTIONS[name]
    assert {p.stem for p in paths} == set(refs)
    assert len(paths) >= 20


@pytest.mark.parametrize("path,refs", CASES, ids=IDS)
def test_kernel_nvcc(path, refs, capsys, monkeypatch):
    monkeypatch.setenv("QGPU_CUDA_COMPILER", "nvcc")
    _check(path, refs, capsys)


@pytest.mark.clang
@pytest.mark.parametrize("path,refs", CASES, ids=IDS)
def test_kernel_clang(path, refs, capsys, monkeypatch):
    require_clang()
    monkeypatch.setenv("QGPU_CUDA_COMPILER", "clang")
    _check(path, refs, capsys)


def test_dot_is_32(capsys):
    got = _run(ROOT / "samples" / "dot.cu", capsys)
    assert got["arrays"]["out"] == [1 * 4 + 2 * 5 + 3 * 6]
