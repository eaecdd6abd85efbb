"""Every kernel with a plain-Python reference, through `qgpu run --json`, with nvcc and with clang.

Four independent collections: samples/*.cu (references in tests/kernel_refs.py),
tests/suite/, tests/suite2/ and tests/suite3/ (batches written apart: the second
sized to press on the machine's limits, the third aimed at semantic corner
cases; references in their refs.py). A suite3 reference may return only some
arrays, or a ``__check__`` function for results whose order real hardware does
not fix (e.g. stream compaction with atomics): it returns the mismatches.
"""

from __future__ import annotations

import importlib.util
import json
import re
from pathlib import Path

import pytest

from conftest import ROOT, SAMPLES, require_clang
from kernel_refs import REFS as SAMPLE_REFS
from kernel_refs import parse_header

from app.cli import main

def _collection(folder: str) -> tuple[list[Path], dict]:
    path = ROOT / "tests" / folder
    spec = importlib.util.spec_from_file_location(f"{folder}_refs", path / "refs.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return sorted(path.glob("*.cu")), mod.REFS


COLLECTIONS = {"samples": (SAMPLES, SAMPLE_REFS), "suite": _collection("suite"), "suite2": _collection("suite2"),
               "suite3": _collection("suite3")}
CASES = [(path, refs) for paths, refs in COLLECTIONS.values() for path in paths]

# Kernels that are plausible CUDA but exceed the machine, by design or with one
# toolchain: each must fail with exit status 2 (or the one given) and a message
# naming the limit (a test of the refusal, not a skip). If one starts to fit,
# its test fails: then give it a reference and remove it from here.
EXPECTED_LIMITS: dict[tuple[str, str], str | tuple[int, str]] = {
    ("suite2/i64_div_const", "*"): r"64-bit 'mul\.hi\.s64' whose upper 32 bits matter is not supported",
    ("suite2/reduce_4cta_smem16", "*"): r"needs 133 words of memory but the machine has 126 \(over by 7",
    ("suite2/scan48_smem", "*"): r"needs 128 words of memory but the machine has 126 \(over by 2",
    # a run-time fault (exit status 1), not a compile-time refusal
    ("suite3/k33_activemask_conv", "*"): (1, r"__activemask: lane 4 of this 32-lane warp is in another 4-lane warp"),
    ("suite3/k41_simd_intr", "nvcc"): r"unsupported PTX instruction 'vabsdiff4",
    ("suite3/k42_i64_mod", "*"): r"64-bit 'mul\.hi\.u64'",
    ("suite3/k51_i64_shift", "*"): r"64-bit 'shr\.s64'",
    ("suite3/k52_shfl64", "nvcc"): r"'mov\.b64' packing or unpacking a vector is not supported",
    ("suite3/k56_vadd_dp4a", "nvcc"): r"unsupported PTX instruction 'dp4a",
    ("suite3/k61_redux_match", "nvcc"): r"unsupported PTX instruction 'match\.any\.sync",
    # intrinsics our clang header (compiler/cuda/qgpu_cuda.h) does not provide
    ("suite3/k41_simd_intr", "clang"): r"k41_simd_intr\.cu:\d+: error: use of undeclared identifier '__vadd4'",
    ("suite3/k56_vadd_dp4a", "clang"): r"k56_vadd_dp4a\.cu:\d+: error: use of undeclared identifier '__vadd4'",
    ("suite3/k61_redux_match", "clang"): r"k61_redux_match\.cu:\d+: error: use of undeclared identifier '__match_any_sync'",
    ("suite3/k52_shfl64", "clang"): r"k52_shfl64\.cu:\d+: error: call to '__shfl_xor_sync' is ambiguous",
}

# Where a toolchain legally compiles a kernel into a different program, the
# reference for that toolchain: clang hoists the __activemask() of both arms of
# k06's first if/else above the branch (both arms call it), so there all four
# lanes are active.
TOOLCHAIN_REFS = {
    ("suite3/k06_activemask", "clang"): lambda want: {**want, "m1": [0x10F, 0xF, 0x10F, 0xF]},
}
IDS = [f"{path.parent.name}/{path.stem}" for path, _ in CASES]


def _run(path: Path, capsys) -> dict:
    rc = main(["run", str(path), "--json"])
    out, err = capsys.readouterr()
    assert rc == 0, err
    return json.loads(out)


def expected_limit(path: Path, toolchain: str) -> tuple[int, str] | None:
    """(exit status, message pattern) if ``path`` is listed in EXPECTED_LIMITS for ``toolchain``."""
    key = f"{path.parent.name}/{path.stem}"
    limit = EXPECTED_LIMITS.get((key, toolchain)) or EXPECTED_LIMITS.get((key, "*"))
    if limit is None:
        return None
    return limit if isinstance(limit, tuple) else (2, limit)


def assert_refused(limit: tuple[int, str], rc: int, out: str, err: str) -> None:
    want_rc, pattern = limit
    assert rc == want_rc and re.search(pattern, err), \
        f"expected exit {want_rc} and a message matching {pattern!r}, got {rc}: {err}{out}"


def _check(path: Path, refs: dict, capsys, toolchain: str) -> None:
    limit = expected_limit(path, toolchain)
    if limit is not None:
        rc = main(["run", str(path), "--json"])
        out, err = capsys.readouterr()
        assert_refused(limit, rc, out, err)
        return
    check_arrays(path, refs, _run(path, capsys)["arrays"], toolchain)


def check_arrays(path: Path, refs: dict, got: dict, toolchain: str = "nvcc") -> None:
    """``got`` (as ``qgpu run --json`` prints it) against the kernel's reference."""
    key = f"{path.parent.name}/{path.stem}"
    grid, block, _kernel, args = parse_header(str(path))
    want = refs[path.stem]({k: (list(v) if isinstance(v, list) else v) for k, v in args.items()}, grid, block)
    if (key, toolchain) in TOOLCHAIN_REFS:
        want = TOOLCHAIN_REFS[(key, toolchain)](want)
    if "__check__" in want:
        assert not want["__check__"](got), f"{path.stem}: {want['__check__'](got)}"
        return
    if path.parent.name != "suite3":
        assert set(got) == set(want), f"pointer parameters differ: {sorted(got)} vs {sorted(want)}"
    for name in want:
        assert got[name] == want[name], f"{path.stem}: array {name!r}"


@pytest.mark.parametrize("name", COLLECTIONS)
def test_every_kernel_has_a_reference(name):
    paths, refs = COLLECTIONS[name]
    refused = {key.split("/")[1] for key, _ in EXPECTED_LIMITS if key.startswith(name + "/")}
    assert {p.stem for p in paths} - refused <= set(refs), "a kernel without a reference"
    assert len(paths) >= 20


@pytest.mark.parametrize("path,refs", CASES, ids=IDS)
def test_kernel_nvcc(path, refs, capsys, monkeypatch):
    monkeypatch.setenv("QGPU_CUDA_COMPILER", "nvcc")
    _check(path, refs, capsys, "nvcc")


@pytest.mark.clang
@pytest.mark.parametrize("path,refs", CASES, ids=IDS)
def test_kernel_clang(path, refs, capsys, monkeypatch):
    require_clang()
    monkeypatch.setenv("QGPU_CUDA_COMPILER", "clang")
    _check(path, refs, capsys, "clang")


def test_dot_is_32(capsys):
    got = _run(ROOT / "samples" / "dot.cu", capsys)
    assert got["arrays"]["out"] == [1 * 4 + 2 * 5 + 3 * 6]
