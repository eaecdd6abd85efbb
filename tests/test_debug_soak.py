"""Soak (issue 29): qgpu-debug driven by thousands of random keys on a recorded session (no model):
steps both ways, breakpoints and watchpoints typed into the prompt (good and bad ones), the
breakpoint list, focus, hex, memory view, layout and page switches, the probe key, fault injection
(refused on a replay), help, and terminal resizes. Every key must be answered (the worker finishes
within a bound), no command may fail, and the position reached must show exactly the state a
straight replay shows there. The seed is fixed (a failure repeats); ``QGPU_SOAK_KEYS`` sets the
number of keys (default 400 in CI, about a minute on a 2-core CPU; QGPU_FULL=1: 3000). The second
test does the same on the model, with faults and the kernel saved mid-step."""

from __future__ import annotations

import asyncio
import os
import random

import pytest
from textual.widgets import Input

from app.debugger.app import DebugApp
from app.debugger.widgets.status import StatusBar

from test_debug_support import replay_session, sync

SIZES = [(120, 40), (80, 24), (110, 34), (100, 30), (60, 20), (140, 50)]
PLAIN = ["s", "s", "s", "n", "n", "c", "f", "S", "S", "N", "C", "F", "r", "w", "W", "l", "L", "full_stop",
         "x", "m", "v", "1", "2", "3", "4", "5", "6", "p", "right_square_bracket", "left_square_bracket", "ctrl+l"]
BREAKPOINTS = ["EXEC(3,*)", "EXEC(*,1)", "B2", "line 12", "watch out[5]", "watch r2@w1.l1",
               "EXEC(*,0) if r2@l1 == 4", "B5 if out[0] != 0", "EXEC(99,*)", "watch r2", "nonsense", ""]


async def _answered(pilot, key: str, timeout: float = 60) -> None:
    """Wait until the key's command has finished (a bound, not a sleep: a hang fails here). The
    file watcher of an app that watches its kernel is a worker that never ends: left out."""
    app = pilot.app
    busy = [w for w in app.workers if w.group != "watch"]
    if busy:  # (an empty list would mean "every worker" to wait_for_complete)
        try:
            await asyncio.wait_for(app.workers.wait_for_complete(busy), timeout=timeout)
        except asyncio.TimeoutError:
            raise AssertionError(f"key {key!r}: no answer within {timeout:.0f} s (busy: {app.busy!r})") from None
    await pilot.pause()


async def _type(pilot, text: str) -> None:
    app = pilot.app
    app.screen.query_one(Input).value = text
    await pilot.press("enter")


async def _common_key(pilot, rng: random.Random, r: float, faults: list[str]) -> str | None:
    """The keys both soaks press, by ``r`` (uniform in 0..1): a terminal resize (3 %), a breakpoint
    typed into its prompt (5 %), a fault typed into its form (4 %). Returns what was done, or None
    when ``r`` falls outside these (the caller's own keys)."""
    if r < 0.03:
        size = rng.choice(SIZES)
        await pilot.resize_terminal(*size)
        return f"resize {size}"
    if r < 0.08:
        text = rng.choice(BREAKPOINTS)
        await pilot.press("b")
        await pilot.pause()
        await _type(pilot, text)
        return f"b {text!r}"
    if r < 0.12:
        await pilot.press("i")
        await pilot.pause()
        await _type(pilot, rng.choice(faults))
        return "i"
    return None


@sync
async def test_thousands_of_random_keys_on_a_replay():
    n = int(os.environ.get("QGPU_SOAK_KEYS") or (3000 if os.environ.get("QGPU_FULL") else 400))
    rng = random.Random(29)
    session = replay_session()
    app = DebugApp(lambda progress: session, watch=False, show_timing=False)
    async with app.run_test(size=SIZES[0]) as pilot:
        await _answered(pilot, "start")
        log = []
        for _ in range(n):
            r = rng.random()
            done = await _common_key(pilot, rng, r, ["r1@w0.l0^3", "out[2]=7", "bad"])
            if done:
                log.append(done)
            elif r < 0.14:
                await pilot.press("B")
                await pilot.pause()
                await pilot.press(rng.choice(["space", "d", "down", "escape"]))
                if app.screen is not app.screen_stack[0]:
                    await pilot.press("escape")
                log.append("B")
            elif r < 0.15:
                await pilot.press("question_mark")
                await pilot.pause()
                await pilot.press("escape")
                log.append("?")
            else:
                key = rng.choice(PLAIN)
                await pilot.press(key)
                log.append(key)
            await _answered(pilot, log[-1])
            assert app.screen is app.screen_stack[0], f"a dialog stayed open after {log[-5:]}"
            bar = app.query_one(StatusBar)
            assert not bar.error, f"after {log[-5:]}: {bar.error}"
            assert app.frame is not None and app.frame.pos == session.pos, log[-5:]
        pos, tokens, state = app.frame.pos, app.frame.tokens, app.frame.state.to_json()
    straight = replay_session()
    straight.start()
    straight.goto(pos)
    f = straight.frame(straight.here())
    assert f.tokens == tokens and f.state.to_json() == state


EDITS = ["r = 333;", "r = 334;", "r = ;"]
"""The line of samples/divergence_nested.cu the soak rewrites: the original, a valid change and a
compile error (the session goes on with the previous build)."""


@pytest.mark.model
@sync
async def test_random_keys_on_the_model_with_kernel_edits(fast3, tmp_path):
    """The same random keys on the model (3:32 checkpoint, fast engine), with fault injection (register,
    memory, a silenced neuron, ``clear``) and the kernel saved mid-step in a valid and in a broken
    version (hot reload; a broken one keeps the previous build). Every key is answered, no command
    fails (a refused breakpoint or a reload's compile error is a message, not an error), and at the
    end, with the faults cleared, the position reached shows exactly what a fresh model session of
    the build in use shows there. ``QGPU_SOAK_MODEL_KEYS``: default 120 (QGPU_FULL=1: 1000)."""
    from app.debugger.backends import ModelBackend
    from app.debugger.session import Kernel, Session
    from app.launching import launch_for
    from conftest import ROOT

    n = int(os.environ.get("QGPU_SOAK_MODEL_KEYS") or (1000 if os.environ.get("QGPU_FULL") else 120))
    path = tmp_path / "kernel.cu"
    path.write_text((ROOT / "samples" / "divergence_nested.cu").read_text())

    def load_kernel():
        k = launch_for(str(path), None, None, None, [], fast3.machine)
        return Kernel(k.program, k.launch, fast3.machine, path.name, k.args, k.grid, k.block)

    def loader(progress):
        k = load_kernel()
        return Session(ModelBackend(fast3, k.program, k.launch), k,
                       make_backend=lambda kk: ModelBackend(fast3, kk.program, kk.launch))

    rng = random.Random(2929)
    app = DebugApp(loader, kernel_file=str(path), reload_kernel=load_kernel, show_timing=False)
    line = EDITS[0]
    try:
        async with app.run_test(size=SIZES[0]) as pilot:
            await _answered(pilot, "start")
            log = []
            for _ in range(n):
                r = rng.random()
                done = await _common_key(pilot, rng, r, ["r1@w0.l0^3", "out[2]=7", "L13.n39", "L2.h0", "clear", "bad"])
                if done:
                    log.append(done)
                elif r < 0.16:  # save another version of the kernel, as an editor does
                    new = rng.choice([e for e in EDITS if e != line])
                    before = (app.reloads, app.reload_errors)
                    tmp = path.with_name(path.name + ".swp")
                    tmp.write_text(path.read_text().replace(line, new))
                    os.replace(tmp, path)
                    line = new
                    t = asyncio.get_running_loop().time()
                    while (app.reloads, app.reload_errors) == before:
                        assert asyncio.get_running_loop().time() - t < 60, f"no reload after saving {new!r}"
                        await pilot.pause(0.1)
                    log.append(f"save {new!r}")
                else:
                    key = rng.choice([k for k in PLAIN if k != "p"])
                    await pilot.press(key)
                    log.append(key)
                await _answered(pilot, log[-1], 120)
                assert app.screen is app.screen_stack[0], f"a dialog stayed open after {log[-5:]}"
                bar = app.query_one(StatusBar)
                if line == EDITS[2]:  # the saved file does not compile: that error, and only it, is shown
                    assert not bar.error or bar.error.startswith(f"{path.name}:26: error"), f"after {log[-5:]}: {bar.error}"
                else:
                    assert not bar.error, f"after {log[-5:]}: {bar.error}"
                assert app.frame is not None and app.frame.pos == app.session.pos, log[-5:]
            await pilot.press("i")
            await pilot.pause()
            await _type(pilot, "clear")
            await _answered(pilot, "clear")
            assert not app.session.faults
            pos, tokens, state = app.frame.pos, app.frame.tokens, app.frame.state.to_json()
            build = app.frame.kernel
    finally:
        fast3.exe.unsilence()
    straight = Session(ModelBackend(fast3, build.program, build.launch), build)
    straight.start()
    straight.goto(pos)
    f = straight.frame(straight.here())
    assert f.tokens == tokens and f.state.to_json() == state
