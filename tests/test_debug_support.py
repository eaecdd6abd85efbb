"""Shared helpers of the debugger tests (tests/test_debug_*.py); no tests here.

FIXTURE is a session recorded from the 3-instruction model in float32 (regenerate with the
command in tests/test_debug_data/README.md); the snapshot and replay tests need no model."""

from __future__ import annotations

from pathlib import Path

from compiler.machine.config import parse_machine

ROOT = Path(__file__).resolve().parents[1]
DATA = Path(__file__).resolve().parent / "test_debug_data"
FIXTURE = DATA / "divergence_nested.qgpu-replay"
SAMPLE = ROOT / "samples" / "divergence_nested.cu"
CFG3 = parse_machine("3:32")


def divergence_program():
    from compiler.kernel_compiler import compile_file

    return compile_file(SAMPLE, None, CFG3)


def replay_session(edit=None):
    """A Session over the recorded fixture; ``edit(recording)`` may change it first."""
    from app.debugger.backends import ReplayBackend
    from app.debugger.replay import load
    from app.debugger.session import Session

    rec = load(FIXTURE)
    if edit:
        edit(rec)
    return Session(ReplayBackend(rec), rec.kernel, history=(rec.tokens, rec.margins))


def interpreter_trace(program, launch, cfg):
    """The interpreter's tokens and events for a launch (the independent reference)."""
    from compiler.circuit.protocol import trace_tokens
    from engine.interpreter import Interpreter

    res = Interpreter(program, launch, cfg).run()
    return trace_tokens(res.trace), res.trace


def sync(fn):
    """Run an ``async def`` test with asyncio (no pytest async plugin needed)."""
    import asyncio
    import functools

    @functools.wraps(fn)
    def wrapper(*args, **kwargs):
        return asyncio.run(fn(*args, **kwargs))

    return wrapper
