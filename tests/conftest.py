"""Shared fixtures: the repository paths and the CUDA toolchains the tests can use."""

from __future__ import annotations

import os
import shutil
import sys
from pathlib import Path

import pytest

if os.environ.get("PYTEST_XDIST_WORKER"):
    # two workers on two cores: one torch thread each (and in the processes they start). Two
    # processes with two OpenMP threads each on two cores made the model tests several times slower.
    os.environ["OMP_NUM_THREADS"] = "1"
    import torch

    torch.set_num_threads(1)

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


MODEL_GROUPS = {"model-3": {"ckpt3", "gpu3", "fast3", "cfg3_model"},
                "model-default": {"default_ckpt", "merged_standin"}}
"""xdist groups of the tests that build, load or train a model, by the fixtures they use: the 3:32
checkpoint (one group), the default checkpoint and the stand-in base with its merge (the other)."""
MODEL_MODULES = {"test_standin": "model-default"}
"""Modules that train the cached stand-in base that ``merged_standin`` also needs."""


@pytest.hookimpl(tryfirst=True)  # before xdist's own hook, which names each item's group from its markers
def pytest_collection_modifyitems(config, items):
    """Tests marked ``full`` run only with QGPU_FULL=1 (tests/circuit_programs.py, ``FULL``); without
    it they are deselected, and pytest's summary line counts them.

    With pytest-xdist (README's test command: ``-n 2 --dist loadgroup``) the tests that build, load
    or train a model go to two groups (``MODEL_GROUPS``), each run by one worker: each checkpoint is
    then built and held once (two workers would each build their own 6-9 GB), and the cached
    checkpoints under $QGPU_MODELS are never written by two processes. The groups come first (they
    are the longest); the other tests (compiler, interpreter, kernels on both toolchains, the
    debugger on the interpreter) fill the workers after them."""
    if os.environ.get("QGPU_FULL", "") != "1":
        drop = [it for it in items if it.get_closest_marker("full")]
        if drop:
            config.hook.pytest_deselected(items=drop)
            items[:] = [it for it in items if not it.get_closest_marker("full")]
    grouped = {}
    for it in items:
        names = set(getattr(it, "fixturenames", ()))
        group = next((g for g, fx in MODEL_GROUPS.items() if fx & names), None)
        group = group or MODEL_MODULES.get(it.module.__name__.rsplit(".", 1)[-1])
        if group is None and it.get_closest_marker("model"):
            group = "model-3"
        if group:
            it.add_marker(pytest.mark.xdist_group(group))
            grouped[id(it)] = group
    items[:] = ([it for it in items if grouped.get(id(it)) == "model-3"]
                + [it for it in items if grouped.get(id(it)) == "model-default"]
                + [it for it in items if id(it) not in grouped])


@pytest.fixture(scope="session")
def spec3():
    """The circuit of the 3-instructions-per-block machine (computed once per test session)."""
    from circuit_programs import CFG3
    from compiler.circuit.gpu import build_spec

    return build_spec(CFG3)


@pytest.fixture(scope="session")
def ckpt3(tmp_path_factory, spec3):
    """A checkpoint directory of the 3-instructions-per-block machine, written once per test
    session for every test that loads a model (the circuit stages, the model backend, the
    debugger). It is 7 GB: deleted at the end of the session (pytest keeps old temporary folders)."""
    from circuit_programs import CFG3
    from compiler.circuit.build import build_checkpoint

    out = build_checkpoint(tmp_path_factory.mktemp("ckpt") / "gpu3", CFG3, spec=spec3)
    yield out
    shutil.rmtree(out, ignore_errors=True)


@pytest.fixture(scope="session")
def gpu3(ckpt3):
    """That checkpoint loaded by plain ``from_pretrained`` in float32 (engine.model.GpuModel, engine
    ``hf``: stock transformers, the reference); one copy for the whole session (a second would not
    fit CI's memory beside the others)."""
    from engine.model import GpuModel

    return GpuModel(ckpt3, "float32", engine="hf")


@pytest.fixture(scope="session")
def fast3(ckpt3):
    """The same checkpoint on the fast engine (engine/fast.py), float32: a few MB of compacted
    weights, so it costs little beside ``gpu3``."""
    from engine.model import GpuModel

    return GpuModel(ckpt3, "float32", engine="fast")


@pytest.fixture(scope="session")
def cfg3_model(spec3, gpu3):
    """(spec, model) of the 3-instructions-per-block machine for the circuit tests that run whole
    programs: the circuit (for its residual layout) and the loaded checkpoint."""
    return spec3, gpu3.model


MERGE_MACHINE = "3:32"
"""The machine of the merged stand-in the merge and chat tests share: 3 instructions per block and a
32-block ROM, the machine of ``ckpt3`` (CI replays its samples); the chat's ``dot``, ``elementwise``,
``reduce_op`` and ``sort_n`` fit its ROM. (The 2-instruction machine is smaller but departs on a
global atomic whose address an earlier slot of the block writes: ``dot``; docs/status.md.)"""


@pytest.fixture(scope="session")
def merged_standin(tmp_path_factory):
    """(base dir, merged dir): the stand-in base (engine/standin.py, trained: peaked distributions)
    in its multimodal layout, merged with the ``MERGE_MACHINE`` circuit by ``qgpu build --base``'s
    code; about 50 s and 8.7 GB, written once per session and deleted at its end."""
    from compiler import merge
    from compiler.circuit.digest import machine
    from engine import standin

    base = standin.ensure_standin_base(text_only=False) / standin.MULTIMODAL
    out = merge.build_merged(base, tmp_path_factory.mktemp("merge") / "merged", machine(MERGE_MACHINE),
                             progress=lambda m: None)
    yield base, out
    shutil.rmtree(out, ignore_errors=True)
