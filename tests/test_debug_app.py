"""qgpu-debug's UI driven by a recorded session (no model): snapshots of the key states and Pilot
tests of the keys. The recording (tests/test_debug_data/) was made on the 3-instruction model;
expected positions come from the interpreter's trace of the same launch, computed here.

Snapshots: ``python -m pytest tests/test_debug_app.py --snapshot-update`` after a deliberate UI
change (the report, snapshot_report.html, shows the differences)."""

from __future__ import annotations


from app.debugger.app import DebugApp
from app.debugger.widgets.status import StatusBar
from engine.model import Word

from test_debug_support import interpreter_trace, replay_session, sync

WIDE, SMALL = (120, 40), (80, 24)


def make_app(session, **kw) -> DebugApp:
    return DebugApp(lambda progress: session, watch=False, show_timing=False, **kw)


async def settle(pilot) -> None:
    await pilot.app.workers.wait_for_complete()
    await pilot.pause()


async def press(pilot, *keys: str) -> None:
    for k in keys:
        await pilot.press(k)
        await settle(pilot)


def _reference():
    s = replay_session()
    k = s.kernel
    tokens, events = interpreter_trace(k.program, k.launch, k.cfg)
    return s, tokens, events


def first_divergent_step():
    """(EXEC step, token index) of the first step that runs only some of its warp's lanes."""
    s, tokens, events = _reference()
    full = {t.warp: 0 for t in s.kernel.launch.threads}
    for t in s.kernel.launch.threads:
        full[t.warp] |= 1 << t.lane
    ex = [i for i, t in enumerate(tokens) if t.startswith("EXEC.")]
    for n, ev in enumerate(events):
        if ev.mask != full[ev.warp]:
            return n, ex[n], ev
    raise AssertionError("divergence_nested never diverges?")


# --- snapshots ------------------------------------------------------------------------------------
def test_snapshot_start(snap_compare):
    assert snap_compare(make_app(replay_session()), run_before=settle, terminal_size=WIDE)


def test_snapshot_start_small_terminal(snap_compare):
    assert snap_compare(make_app(replay_session()), run_before=settle, terminal_size=SMALL)


def test_snapshot_mid_divergence(snap_compare):
    n, _, _ = first_divergent_step()

    async def run_before(pilot):
        await settle(pilot)
        await press(pilot, *["n"] * n)

    assert snap_compare(make_app(replay_session()), run_before=run_before, terminal_size=WIDE)


def test_snapshot_breakpoint_hit(snap_compare):
    _, _, ev = first_divergent_step()
    s = replay_session()
    s.add_breakpoint(f"EXEC({ev.block},*)")

    async def run_before(pilot):
        await settle(pilot)
        await press(pilot, "c")

    assert snap_compare(make_app(s), run_before=run_before, terminal_size=WIDE)


def _inject(rec):
    """A wrong register value (warp 1, the warp of that step) and a low-margin memory word in the
    recorded state after token 30."""
    st = rec.states[30]
    old = st.regs[1][1][6]
    st.regs[1][1][6] = Word((old.value + 1) & 0xFFFFFFFF, 1.0, True)
    st.memory[2] = Word(st.memory[2].value, 0.21, True)


def test_snapshot_diff_with_injected_mismatch(snap_compare):
    async def run_before(pilot):
        await settle(pilot)
        pilot.app.session.goto(31)
        await press(pilot, "ctrl+l")

    assert snap_compare(make_app(replay_session(_inject)), run_before=run_before, terminal_size=WIDE)


# --- pilot tests --------------------------------------------------------------------------------------
@sync
async def test_keys_step_next_and_back():
    s, tokens, _ = _reference()
    ex = [i for i, t in enumerate(tokens) if t.startswith("EXEC.")]
    app = make_app(s)
    async with app.run_test(size=WIDE) as pilot:
        await settle(pilot)
        assert app.frame.pos == 1 and app.frame.stop.kind == "launch"
        await press(pilot, "s", "s", "s")
        assert app.frame.pos == 4 and app.frame.tokens == tokens[:4]
        await press(pilot, "n")
        assert app.frame.pos == ex[1] + 1 and app.frame.step.index == 1
        await press(pilot, "S")
        assert app.frame.pos == ex[1]
        await press(pilot, "N")
        assert app.frame.pos == ex[0] + 1
        await press(pilot, "f")
        assert app.frame.done and app.frame.pos == len(tokens)
        await press(pilot, "F")
        assert app.frame.pos == 1
        await press(pilot, "f", "r")
        assert app.frame.pos == 1 and app.frame.stop.kind == "restart"


@sync
async def test_breakpoint_prompt_continue_and_list():
    n, at, ev = first_divergent_step()
    app = make_app(replay_session())
    async with app.run_test(size=WIDE) as pilot:
        await settle(pilot)
        await pilot.press("b")
        await pilot.pause()
        inp = app.screen.query_one("#bp-input")
        inp.value = f"EXEC({ev.block},{ev.warp})"
        await pilot.press("enter")
        await settle(pilot)
        assert [bp.spec for bp in app.session.breakpoints.items] == [f"EXEC({ev.block},{ev.warp})"]
        await press(pilot, "c")
        first = app.frame
        assert first.stop.kind == "breakpoint"
        assert first.tokens[-1].startswith(f"EXEC.{ev.block}.{ev.warp}.")
        assert first.pos - 1 <= at  # the first EXEC of that block and warp
        # the list: disable it, then continue runs to the end
        await pilot.press("B")
        await pilot.pause()
        lv = app.screen.query_one("#bp-list")
        lv.index = 2
        await pilot.press("space")
        await pilot.press("escape")
        await settle(pilot)
        assert not app.session.breakpoints.items[0].enabled
        await press(pilot, "c")
        assert app.frame.done
        # delete it
        await pilot.press("B")
        await pilot.pause()
        app.screen.query_one("#bp-list").index = 2
        await pilot.press("d", "escape")
        await settle(pilot)
        assert app.session.breakpoints.items == []


@sync
async def test_bad_breakpoint_is_reported_and_ignored():
    app = make_app(replay_session())
    async with app.run_test(size=WIDE) as pilot:
        await settle(pilot)
        await pilot.press("b")
        await pilot.pause()
        app.screen.query_one("#bp-input").value = "EXEC(99,*)"
        await pilot.press("enter")
        await settle(pilot)
        assert app.session.breakpoints.items == []
        assert "never hit" in app.query_one("#status").message


@sync
async def test_focus_hex_and_memory_toggles():
    app = make_app(replay_session())
    async with app.run_test(size=WIDE) as pilot:
        await settle(pilot)
        await press(pilot, "w", "l", "l")
        assert (app.warp, app.lane) == (1, 2)
        status = app.query_one("#status").render().plain
        assert "focus CTA 0 · warp 1 · lane 2" in status
        regs = app.query_one("#registers")
        await press(pilot, "f")  # the end: registers hold values
        dec = regs.render().plain
        await press(pilot, "x")
        hx = regs.render().plain
        assert dec != hx and "hex" in app.query_one("#status").render().plain
        await press(pilot, "m")
        assert "out@" in app.query_one("#memory").render().plain


@sync
async def test_help_lists_every_binding():
    from app.debugger.keymap import KEYS

    app = make_app(replay_session())
    async with app.run_test(size=WIDE) as pilot:
        await settle(pilot)
        await pilot.press("question_mark")
        await pilot.pause()
        text = app.screen.plain()
        for k in KEYS:
            assert k.id in text
        await pilot.press("escape")


@sync
async def test_probe_layer_keys_say_the_probe_is_off():
    """] and [ select a layer of the probe; with the probe off (a replay has none) they say how to
    turn it on instead of doing nothing."""
    app = make_app(replay_session())
    async with app.run_test(size=WIDE) as pilot:
        await settle(pilot)
        await press(pilot, "right_square_bracket")
        assert "probe is off" in app.query_one(StatusBar).message
        await press(pilot, "left_square_bracket")
        assert "probe is off" in app.query_one(StatusBar).message


@sync
async def test_keymap_rebinds_keys():
    app = make_app(replay_session(), keymap={"step": "j", "reverse-step": "k"})
    async with app.run_test(size=WIDE) as pilot:
        await settle(pilot)
        await press(pilot, "j", "j")
        assert app.frame.pos == 3
        await press(pilot, "k")
        assert app.frame.pos == 2
        await press(pilot, "s")  # no longer bound
        assert app.frame.pos == 2


@sync
async def test_small_terminal_uses_pages():
    app = make_app(replay_session())
    async with app.run_test(size=SMALL) as pilot:
        await settle(pilot)
        assert app.compact and app.query_one("#tabs").display
        assert app.query_one("#source").display and not app.query_one("#tokens").display
        await press(pilot, "5")
        assert app.query_one("#tokens").display and not app.query_one("#source").display
        assert "focus CTA 0" in app.query_one("#status").render().plain  # focus always visible


def test_continue_stops_where_the_model_departs():
    """A recorded token changed by hand: a continue stops right there, loudly, every time."""
    s0, tokens, _ = _reference()
    i = next(n for n, t in enumerate(tokens) if n > 40 and t.startswith("R."))
    wrong = "R.9" if tokens[i] != "R.9" else "R.8"

    def edit(rec):
        rec.tokens[i] = wrong

    s = replay_session(edit)
    assert s.start().kind == "launch"
    stop = s.cont()
    assert stop.kind == "mismatch" and s.pos == i + 1
    f = s.frame(stop)
    assert f.departure == i and f.tokens[i] == wrong and f.expected == tokens[i]
    # the diff pane: the departure on top, and never "equal" beside it (the recorded state matches)
    from app.debugger.widgets.data import DiffPane

    pane = DiffPane()
    text = pane.draw(f, 40, 100).plain
    assert f"TOKEN {i}: model {wrong}" in text and "equal" not in text and "but the launch departs" in text
    assert "PROBLEM" in pane.title_for(f)
    s.back_finish()
    assert s.cont().kind == "mismatch" and s.pos == i + 1  # again after going back
    s.breakpoints.on_mismatch = False
    assert s.cont().kind == "end"
