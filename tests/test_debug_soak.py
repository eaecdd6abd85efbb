"""Soak (issue 29): qgpu-debug driven by thousands of random keys on a recorded session (no model):
steps both ways, breakpoints and watchpoints typed into the prompt (good and bad ones), the
breakpoint list, focus, hex, memory view, layout and page switches, the probe key, fault injection
(refused on a replay), help, and terminal resizes. Every key must be answered (the worker finishes
within a bound), no command may fail, and the position reached must show exactly the state a
straight replay shows there. The seed is fixed (a failure repeats); ``QGPU_SOAK_KEYS`` sets the
number of keys (default 400 in CI, about a minute on a 2-core CPU; QGPU_FULL=1: 3000)."""

from __future__ import annotations

import asyncio
import os
import random

from textual.widgets import Input

from app.debugger.app import DebugApp
from app.debugger.widgets.status import StatusBar

from test_debug_support import replay_session, sync

SIZES = [(120, 40), (80, 24), (110, 34), (100, 30), (60, 20), (140, 50)]
PLAIN = ["s", "s", "s", "n", "n", "c", "f", "S", "S", "N", "C", "F", "r", "w", "W", "l", "L", "full_stop",
         "x", "m", "v", "1", "2", "3", "4", "5", "6", "p", "right_square_bracket", "left_square_bracket", "ctrl+l"]
BREAKPOINTS = ["EXEC(3,*)", "EXEC(*,1)", "B2", "line 12", "watch out[5]", "watch r2@w1.l1",
               "EXEC(*,0) if r2@l1 == 4", "B5 if out[0] != 0", "EXEC(99,*)", "watch r2", "nonsense", ""]


async def _answered(pilot, key: str) -> None:
    """Wait until the key's command has finished (a bound, not a sleep: a hang fails here)."""
    app = pilot.app
    try:
        await asyncio.wait_for(app.workers.wait_for_complete(), timeout=60)
    except asyncio.TimeoutError:
        raise AssertionError(f"key {key!r}: no answer within 60 s (busy: {app.busy!r})") from None
    await pilot.pause()


async def _type(pilot, text: str) -> None:
    app = pilot.app
    app.screen.query_one(Input).value = text
    await pilot.press("enter")


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
            if r < 0.03:
                size = rng.choice(SIZES)
                await pilot.resize_terminal(*size)
                log.append(f"resize {size}")
            elif r < 0.08:
                text = rng.choice(BREAKPOINTS)
                await pilot.press("b")
                await pilot.pause()
                await _type(pilot, text)
                log.append(f"b {text!r}")
            elif r < 0.10:
                await pilot.press("B")
                await pilot.pause()
                await pilot.press(rng.choice(["space", "d", "down", "escape"]))
                if app.screen is not app.screen_stack[0]:
                    await pilot.press("escape")
                log.append("B")
            elif r < 0.12:
                await pilot.press("i")
                await pilot.pause()
                await _type(pilot, rng.choice(["r1@w0.l0^3", "out[2]=7", "bad"]))
                log.append("i")
            elif r < 0.13:
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
