"""A second, independent batch of kernels (tests/suite/*.cu) through `qgpu run --json`,
each against its plain-Python reference in tests/suite/refs.py."""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path

import pytest

from kernel_refs import parse_header

from app.cli import main

SUITE = Path(__file__).resolve().parent / "suite"
KERNELS = sorted(SUITE.glob("*.cu"))


def _load_refs() -> dict:
    spec = importlib.util.spec_from_file_location("suite_refs", SUITE / "refs.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod.REFS


REFS = _load_refs()


def _expected(path: Path) -> dict:
    grid, block, _kernel, args = parse_header(str(path))
    return REFS[path.stem]({k: (list(v) if isinstance(v, list) else v) for k, v in args.items()}, grid, block)


def test_every_kernel_has_a_reference():
    assert {p.stem for p in KERNELS} == set(REFS)
    assert len(KERNELS) >= 40


@pytest.mark.parametrize("path", KERNELS, ids=lambda p: p.stem)
def test_suite_kernel(path, capsys):
    rc = main(["run", str(path), "--json"])
    out, err = capsys.readouterr()
    assert rc == 0, err
    got = json.loads(out)["arrays"]
    want = _expected(path)
    assert set(got) == set(want), f"pointer parameters differ: {sorted(got)} vs {sorted(want)}"
    for name in want:
        assert got[name] == want[name], f"{path.stem}: array {name!r}"
