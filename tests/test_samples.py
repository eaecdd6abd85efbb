"""Every sample, through `qgpu run --json`, against its independent Python reference."""

from __future__ import annotations

import json

import pytest

from conftest import SAMPLES, require_clang
from kernel_refs import REFS, parse_header

from app.cli import main


def _run(path, capsys) -> dict:
    rc = main(["run", str(path), "--json"])
    out, err = capsys.readouterr()
    assert rc == 0, err
    return json.loads(out)


def _expected(path) -> dict:
    grid, block, _kernel, args = parse_header(str(path))
    return REFS[path.stem]({k: (list(v) if isinstance(v, list) else v) for k, v in args.items()}, grid, block)


def test_every_sample_has_a_reference():
    assert {p.stem for p in SAMPLES} == set(REFS)
    assert len(SAMPLES) >= 20


@pytest.mark.parametrize("path", SAMPLES, ids=lambda p: p.stem)
def test_sample_nvcc(path, capsys, monkeypatch):
    monkeypatch.setenv("QGPU_CUDA_COMPILER", "nvcc")
    assert _run(path, capsys)["arrays"] == _expected(path)


@pytest.mark.clang
@pytest.mark.parametrize("path", SAMPLES, ids=lambda p: p.stem)
def test_sample_clang(path, capsys, monkeypatch):
    require_clang()
    monkeypatch.setenv("QGPU_CUDA_COMPILER", "clang")
    assert _run(path, capsys)["arrays"] == _expected(path)


def test_dot_is_32(capsys):
    from conftest import ROOT

    got = _run(ROOT / "samples" / "dot.cu", capsys)
    assert got["arrays"]["out"] == [1 * 4 + 2 * 5 + 3 * 6]
