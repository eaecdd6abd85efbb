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
