"""Shared fixtures: the repository paths and the CUDA toolchains the tests can use."""

from __future__ import annotations

import os
import shutil
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
SAMPLES = sorted((ROOT / "samples").glob("*.cu"))
sys.path.insert(0, str(ROOT))


def clang_available() -> bool:
    return bool(os.environ.get("CLANG") or shutil.which("clang") or shutil.which("clang-14"))


def require_clang() -> None:
    """Skip without clang, unless CI asked for it (then a missing clang is a failure)."""
    if clang_available():
        return
    if os.environ.get("QGPU_REQUIRE_CLANG"):
        pytest.fail("QGPU_REQUIRE_CLANG is set but no clang was found")
    pytest.skip("clang with the NVPTX backend is not installed")


@pytest.fixture(scope="session")
def cfg3_model():
    """(spec, model) of the 3-instructions-per-block machine, built in memory once for every
    circuit test module that runs whole programs (a build takes tens of seconds)."""
    import torch

    from circuit_programs import CFG3
    from compiler.circuit.checkpoint import build_model
    from compiler.circuit.gpu import build_spec

    spec = build_spec(CFG3)
    return spec, build_model(spec, torch.float32)


@pytest.fixture(scope="session")
def ckpt3(tmp_path_factory):
    """A checkpoint directory of the 3-instructions-per-block machine, written once per test
    session for every test that loads a model from disk (the model backend, the debugger).
    It is 5 GB: deleted at the end of the session (pytest keeps old temporary folders)."""
    from circuit_programs import CFG3
    from compiler.circuit.build import build_checkpoint

    out = build_checkpoint(tmp_path_factory.mktemp("ckpt") / "gpu3", CFG3)
    yield out
    shutil.rmtree(out, ignore_errors=True)
