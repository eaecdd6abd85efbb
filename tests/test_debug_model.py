"""qgpu-debug on the model (the 3-instruction checkpoint of conftest's ``ckpt3``).

Every expectation comes from the reference interpreter run here (its trace tokens and its
state), or from the model's own cache read directly (reverse stepping must restore it bit for
bit); never from the debugger's session code.
"""

from __future__ import annotations

import os
import time

import pytest
import torch

from app.debugger.backends import ModelBackend
from app.debugger.breakpoints import Breakpoints
from app.debugger.session import Kernel, Session
from app.debugger.widgets.status import StatusBar
from engine.interpreter import Interpreter

from test_debug_support import SAMPLE, interpreter_trace, sync

pytestmark = pytest.mark.model


@pytest.fixture(scope="module")
def gpu(gpu3):
    return gpu3  # the session's loaded 3-instruction model (tests/conftest.py)


def kernel_of(path, cfg) -> Kernel:
    from app.launching import launch_for

    k = launch_for(str(path), None, None, None, [], cfg)
    return Kernel(k.program, k.launch, cfg, path.name, k.args, k.grid, k.block)


@pytest.fixture(scope="module")
def kernel(gpu):
    return kernel_of(SAMPLE, gpu.machine)


@pytest.fixture(scope="module")
def trace(kernel):
    return interpreter_trace(kernel.program, kernel.launch, kernel.cfg)


@pytest.fixture(scope="module")
def shared(gpu, kernel):
    s = Session(ModelBackend(gpu, kernel.program, kernel.launch), kernel)
    s.start()
    return s


@pytest.fixture
def session(shared):
    """The module's session, back at the launch with no breakpoints (restart is exact: the
    prompt pass's keyframe)."""
    shared.breakpoints = Breakpoints()
    shared.clear_faults()
    shared.restart()
    return shared


def cache_bits(cache) -> dict[str, torch.Tensor]:
    """Every tensor of the cache as raw integer bits (read here, not through engine/snapshot.py)."""
    out = {}
    for i, layer in enumerate(getattr(cache, "layers", [])):
        for name in ("conv_states", "recurrent_states"):
            for k, t in (getattr(layer, name, None) or {}).items():
                if t is not None:
                    out[f"{i}.{name}.{k}"] = t.clone().view(torch.int32)
        for name in ("keys", "values"):
            t = getattr(layer, name, None)
            if isinstance(t, torch.Tensor):
                out[f"{i}.{name}"] = t.clone().view(torch.int32)
    if not hasattr(cache, "layers"):  # engine/fast.py's FastCache: plain dicts of tensors
        for name in ("conv", "state", "keys", "values"):
            for k, t in getattr(cache, name).items():
                out[f"{k}.{name}"] = t.clone().view(torch.int32) if t.dtype == torch.float32 else t.clone()
        out["seen"] = torch.tensor(cache.seen)
    assert out
    return out


def interp_after(kernel, steps: int) -> Interpreter:
    it = Interpreter(kernel.program, kernel.launch, kernel.cfg)
    for _ in range(steps):
        it.step()
    return it


def assert_state_is_interpreters(frame, it: Interpreter) -> None:
    cfg = frame.kernel.cfg
    for ws in it.warps:
        for lane in range(cfg.lanes):
            if ws.status[lane] == "absent":
                continue
            got = [frame.state.regs[ws.warp][lane][r].value for r in range(1, cfg.regs)]
            assert got == ws.regs[lane][1:], (ws.warp, lane)
            assert [frame.state.preds[ws.warp][lane][p].value for p in range(cfg.preds)] == \
                [int(b) for b in ws.preds[lane]]
    assert [w.value for w in frame.state.memory] == it.memory


def test_a_step_is_one_forward_pass_and_gives_the_interpreters_token(session, gpu, trace):
    tokens, _ = trace
    calls = []
    hook = gpu.model.register_forward_hook(lambda *a: calls.append(1))
    try:
        for i in range(1, 30):
            before = len(calls)
            stop = session.step()
            assert len(calls) - before == 1, "one key = one forward pass"
            assert session.history[i] == tokens[i], i
            assert stop.kind == "step"
    finally:
        hook.remove()
    ex = [i for i, t in enumerate(tokens) if t.startswith("EXEC.")]
    assert ex[1] < 30
    session.goto(ex[1] + 1)  # at the second EXEC: the state after one EXEC step
    f = session.frame(session.step())  # one pass more: EXEC #1 fed, its records not yet
    assert f.step.index == 1 and f.mismatches == [] and f.lows == []
    session.goto(ex[1] + 1)
    f = session.frame(session.back())
    session.step()
    f = session.frame(session.back())
    assert f.pos == ex[1]


def test_reverse_step_restores_the_exact_state(session, trace):
    tokens, _ = trace
    session.goto(7)  # between keyframes (every 4 tokens): a step back re-executes from one
    want = cache_bits(session.backend.run.cache)
    for _ in range(9):
        session.step()
    assert session.pos == 16
    for _ in range(9):
        session.back()
    assert session.pos == 7
    got = cache_bits(session.backend.run.cache)
    assert got.keys() == want.keys()
    for k in want:
        assert torch.equal(got[k], want[k]), k
    assert session.step().text.endswith(tokens[7])  # and it goes on exactly as before
    # a longer jump back (reverse-finish) and forward again
    session.goto(23)
    mid = cache_bits(session.backend.run.cache)
    session.back_finish()
    assert session.pos == 1
    session.goto(23)
    again = cache_bits(session.backend.run.cache)
    assert all(torch.equal(again[k], mid[k]) for k in mid)


def fast_bits(cache) -> dict[str, torch.Tensor]:
    """Every tensor of a fast-engine cache as raw integer bits."""
    return {f"{name}.{i}": t.contiguous().view(torch.int32 if t.element_size() == 4 else torch.int16).clone()
            for name in ("conv", "state", "keys", "values") for i, t in getattr(cache, name).items()}


def test_reverse_stepping_on_the_fast_engine(fast3, trace):
    """The debugger on the fast engine (its default): each step is the interpreter's token, a step
    back restores the cache bit for bit (engine/snapshot.py packs the fast cache too), and stepping
    on repeats the same tokens."""
    tokens, _ = trace
    kernel = kernel_of(SAMPLE, fast3.machine)
    s = Session(ModelBackend(fast3, kernel.program, kernel.launch), kernel)
    s.start()
    s.goto(7)
    want = fast_bits(s.backend.run.cache)
    for _ in range(9):
        s.step()
    assert s.pos == 16 and s.history == tokens[:len(s.history)]
    for _ in range(9):
        s.back()
    assert s.pos == 7
    got = fast_bits(s.backend.run.cache)
    assert got.keys() == want.keys() and all(torch.equal(got[k], want[k]) for k in want)
    s.goto(40)
    assert s.pos == 40 and len(s.history) == 40 and s.history == tokens[:40]


@pytest.mark.full  # QGPU_FULL=1 only: ~90 s of token-by-token steps; tests/test_debug_app.py hits EXEC breakpoints
def test_breakpoint_on_a_divergent_block(session, kernel, trace):
    tokens, events = trace
    full = {}
    for t in kernel.launch.threads:
        full[t.warp] = full.get(t.warp, 0) | 1 << t.lane
    n, ev = next((n, ev) for n, ev in enumerate(events) if ev.mask != full[ev.warp])
    first = next(i for i, ev2 in enumerate(events) if ev2.block == ev.block)
    at = [i for i, t in enumerate(tokens) if t.startswith("EXEC.")][first]
    session.add_breakpoint(f"EXEC({ev.block},*)")
    stop = session.cont()
    assert stop.kind == "breakpoint" and session.pos - 1 == at
    f = session.frame(stop)
    assert f.tokens[-1] == tokens[at]
    assert_state_is_interpreters(f, interp_after(kernel, first))
    assert f.mismatches == [] and f.departure is None
    # continue to the divergent step itself and look at what the debugger says about it
    session.breakpoints = Breakpoints()
    session.add_breakpoint(f"EXEC({ev.block},{ev.warp})")
    while session.pos - 1 < [i for i, t in enumerate(tokens) if t.startswith("EXEC.")][n]:
        stop = session.cont()
        assert stop.kind == "breakpoint"
    f = session.frame(stop)
    assert f.step.index == n and f.step.mask == ev.mask
    from app.debugger.widgets.machine import explain

    text = explain(f)
    waiting = [lane for lane in range(kernel.cfg.lanes) if full[ev.warp] >> lane & 1 and not ev.mask >> lane & 1]
    assert waiting and f"{','.join(map(str, waiting))} wait" in text and "diverged" in text, text
    it = interp_after(kernel, n)
    assert all(f"wait at B{it.warps[ev.warp].pcs[lane]}" in text for lane in waiting), text


def _corrupt(session, gpu) -> None:
    """Flip bit 0 of r4 in lane 1 of warp 0 and blur it in lane 2 (set = clear), in the register
    file copy engine/model.py reads (layout["state"]["registers"]: two heads per lane)."""
    loc = gpu.layout["state"]["registers"]
    base = loc["head"] * gpu.layout["state"]["heads_per_key"]
    S = session.backend.run.cache.layers[loc["layer"]].recurrent_states[0][0]
    for h in (base + 2, base + 3):
        S[h, 4, [0, 1]] = S[h, 4, [1, 0]].clone()
    for h in (base + 4, base + 5):
        S[h, 4, [0, 1]] = S[h, 4, [0, 1]].mean()


@pytest.mark.full  # QGPU_FULL=1 only (~50 s); tests/test_debug_app.py injects one into a replay
def test_injected_state_error_is_reported(session, gpu, trace):
    tokens, _ = trace
    ex = [i for i, t in enumerate(tokens) if t.startswith("EXEC.")]
    session.goto(ex[2] + 1)
    assert session.frame(session.here()).mismatches == []
    _corrupt(session, gpu)
    f = session.frame(session.here())
    assert [x.where for x in f.mismatches if x.kind == "reg"][:1] == ["w0 l1 r4"]
    assert any(lw.where == "w0 l2 r4" and lw.margin < 0.5 for lw in f.lows)
    # a step back and forth restores the model's own state (the keyframes hold it)
    session.back()
    session.step()
    f = session.frame(session.here())
    assert f.mismatches == [] and f.lows == []


def test_record_then_replay_shows_the_same_tokens_and_state(gpu, kernel, trace, tmp_path):
    from app.debugger.backends import ReplayBackend
    from app.debugger.replay import Recorder, load

    tokens, _ = trace
    path = tmp_path / "s.qgpu-replay"
    rec = Recorder(path, gpu)
    s = Session(ModelBackend(gpu, kernel.program, kernel.launch), kernel, recorder=rec)
    s.start()
    live = {}
    for _ in range(2):
        s.step_exec()
        s.step()
        live[s.pos] = s.frame(s.here()).state.to_json()
    for _ in range(3):
        s.step()
    rec.close()
    r = load(path)
    assert r.tokens == s.history == tokens[:len(r.tokens)]
    assert r.header["model"]["dtype"] == "float32"
    assert r.rom == s.backend.rom()
    replay = Session(ReplayBackend(r), r.kernel, history=(r.tokens, r.margins))
    replay.start()
    for pos, st in live.items():
        replay.goto(pos)
        f = replay.frame(replay.here())
        assert f.pos == pos and f.state.to_json() == st and f.tokens == tokens[:pos]


# --- the app on the model -------------------------------------------------------------------------
@sync
async def test_the_ui_keeps_working_while_the_model_steps(shared, monkeypatch):
    import threading

    from app.debugger.app import DebugApp

    shared.breakpoints = Breakpoints()
    shared.restart()
    app = DebugApp(lambda p: shared, watch=False, show_timing=False)
    async with app.run_test(size=(120, 40)) as pilot:
        await app.workers.wait_for_complete()
        await pilot.pause()
        assert app.frame.pos == 1
        # the worker's first forward pass waits until the UI has answered: whether a short EXEC step
        # (a few passes) ends before the key below is handled must not decide the test
        gate, real_pass = threading.Event(), shared._pass
        monkeypatch.setattr(shared, "_pass", lambda: (gate.wait(timeout=300), real_pass())[1])
        await pilot.press("n")  # a whole EXEC step: several forward passes in the worker
        assert app.busy
        await pilot.press("w")  # the UI answers meanwhile
        assert app.warp == 1 and app.busy
        gate.set()
        await app.workers.wait_for_complete()
        await pilot.pause()
        assert not app.busy and app.frame.tokens[-1].startswith("EXEC.") and app.frame.step.index == 1


def _edit(path, old, new):
    """Save like an editor: write a temporary file and rename it over the kernel."""
    text = path.read_text()
    assert old in text
    tmp = path.with_name(path.name + ".swp")
    tmp.write_text(text.replace(old, new))
    os.replace(tmp, path)


async def _wait(pilot, cond, timeout=300.0):
    t = time.monotonic()
    while not cond():
        assert time.monotonic() - t < timeout, "timed out"
        await pilot.pause(0.1)
    app = pilot.app
    busy = [w for w in app.workers if w.group != "watch"]  # the watcher never ends
    if busy:  # (an empty list would mean "every worker" to wait_for_complete)
        await app.workers.wait_for_complete(busy)
    await pilot.pause()


def _reload_app(gpu, path):
    from app.debugger.app import DebugApp

    def load_kernel():
        return kernel_of(path, gpu.machine)

    def loader(progress):
        k = load_kernel()
        return Session(ModelBackend(gpu, k.program, k.launch), k,
                       make_backend=lambda kk: ModelBackend(gpu, kk.program, kk.launch))

    return DebugApp(loader, kernel_file=str(path), reload_kernel=load_kernel, show_timing=False)


@sync
async def test_hot_reload_valid_then_broken_edit(gpu, tmp_path):
    path = tmp_path / "kernel.cu"
    path.write_text(SAMPLE.read_text())
    app = _reload_app(gpu, path)
    async with app.run_test(size=(120, 40)) as pilot:
        await _wait(pilot, lambda: app.frame is not None)
        app.session.add_breakpoint("EXEC(2,*)")
        line = next(n for n, t in enumerate(path.read_text().splitlines(), 1) if "r = 333" in t)
        app.session.add_breakpoint(f"line {line}")
        await pilot.press("s")
        await _wait(pilot, lambda: not app.busy)
        assert app.frame.pos == 2
        _edit(path, "r = 333;", "r = 334;")
        await _wait(pilot, lambda: app.reloads == 1 and not app.busy)
        f = app.frame
        assert "r = 334;" in f.kernel.program.source and f.pos == 1 and f.stop.kind == "reload"
        assert [bp.spec for bp in app.session.breakpoints.items] == ["EXEC(2,*)", f"line {line}"]
        want, _ = interpreter_trace(f.kernel.program, f.kernel.launch, f.kernel.cfg)
        assert want[0] == f.tokens[0]
        assert any(t == "S.78" or t.startswith("B0.78") for t in want)  # 334 = 0x14e: B0.78 B1.1 ...
        _edit(path, "r = 334;", "r = ;")
        await _wait(pilot, lambda: app.reload_errors == 1)
        box = app.query_one("#error")
        assert box.has_class("-shown")
        text = str(box.render())
        assert f"kernel.cu:{line}" in text and "error" in text and str(tmp_path) not in text
        assert "reload failed" in app.query_one("#status").render().plain
        await pilot.press("s")  # the session goes on with the previous build
        await _wait(pilot, lambda: not app.busy)
        assert app.frame.pos == 2 and "r = 334;" in app.frame.kernel.program.source


def test_snapshot_compile_error_after_reload(gpu, tmp_path, snap_compare, monkeypatch):
    from conftest import require_clang

    require_clang()  # the message and the PTX pane depend on the toolchain: snapshots use clang
    monkeypatch.setenv("QGPU_CUDA_COMPILER", "clang")
    path = tmp_path / "kernel.cu"
    path.write_text(SAMPLE.read_text())
    app = _reload_app(gpu, path)

    async def run_before(pilot):
        await _wait(pilot, lambda: app.frame is not None)
        _edit(path, "r = 333;", "r = ;")
        await _wait(pilot, lambda: app.reload_errors == 1)

    assert snap_compare(app, run_before=run_before, terminal_size=(120, 40))


def _read_again_fault(kernel, trace):
    """A register fault (value 12345, lane 0) that a later step reads: the first one, from step 2 on,
    whose faulted interpreter trace differs from the clean one. (step, spec, faulted tokens)."""
    from engine.faults import Fault, faulted_run

    tokens, _ = trace
    nwarps = kernel.launch.warps
    for step in range(2, 12):
        for w in range(nwarps):
            for r in range(1, kernel.program.regs_used + 1):
                f = Fault("reg", step=step, warp=w, lane=0, reg=r, value=12345)
                faulted, _ = faulted_run(kernel.program, kernel.launch, kernel.cfg, f)
                if faulted != tokens:
                    return step, f"r{r}@w{w}.l0=12345", faulted
    raise AssertionError("no register fault of steps 2..11 shows")


@pytest.fixture(scope="module")
def fast_session(fast3, kernel):
    """A session on the fast engine (engine/fast.py): for the tests that run whole launches."""
    s = Session(ModelBackend(fast3, kernel.program, kernel.launch), kernel)
    s.start()
    return s


def test_fault_injected_in_the_debugger_shows_where_the_interpreter_says(fast_session, kernel, trace):
    """The model follows the faulted interpreter (engine/faults.faulted_run, plain Python) token for
    token; the diff shows the changed register at once; continue stops at the first token where
    the fault shows; reverse stepping across the fault writes it again; clearing it restores the
    clean launch."""
    import pytest as _pytest

    from compiler.errors import LaunchError

    session = fast_session
    tokens, _ = trace
    ex = [i for i, t in enumerate(tokens) if t.startswith("EXEC.")]
    step, spec, faulted = _read_again_fault(kernel, trace)
    shows = next(i for i, (a, b) in enumerate(zip(faulted, tokens)) if a != b)
    session.goto(ex[step] + 1)  # at EXEC step `step`'s token: its pass is next
    stop = session.inject(spec)
    assert stop.kind == "fault" and f"before EXEC step {step}" in stop.text, stop.text
    f = session.frame(stop)
    w, r = spec.split("@w")[1].split(".")[0], spec.split("@")[0][1:]
    assert f"w{w} l0 r{r}" in [m.where for m in f.mismatches if m.kind == "reg"]
    assert f.injected and f.departure is None
    stop = session.cont()
    assert stop.kind == "mismatch" and session.departure == shows, (stop.text, shows)
    assert session.history == faulted[:shows + 1]
    # back across the fault and forward again: the same tokens (the fault is written again)
    session.goto(ex[step])
    session.goto(shows + 1)
    assert session.history == faulted[:shows + 1]
    session.finish()
    assert session.history == faulted, "the model ends the faulted launch as the interpreter does"
    stop = session.clear_faults()
    assert session.pos == ex[step] + 1 and not session.faults
    assert session.frame(session.here()).mismatches == []
    session.finish()
    assert session.history == tokens and session.departure is None
    with _pytest.raises(ValueError, match="without @STEP"):
        session.check_fault("mem[3]^1@4")
    with _pytest.raises(LaunchError, match="registers are r1"):
        session.check_fault("r0@w0.l0")


def test_silenced_head_in_the_debugger_holds_from_its_step_on(fast_session, kernel, trace):
    """A silenced head (``LN.hK``, engine/faults.py) is a weight edit from its EXEC step on: with
    the register file's first value head silenced (layer and head from the layout the checkpoint
    ships) the launch departs from the interpreter after the fault; reverse stepping to before it
    re-executes with the checkpoint's weights (the clean tokens), forward again with the head
    silenced (the same departed tokens); ``clear`` gives the clean launch back."""
    session = fast_session
    tokens, _ = trace
    st = session.backend.gpu.layout["state"]
    L, h = st["registers"]["layer"], st["registers"]["head"] * st["heads_per_key"]
    ex = [i for i, t in enumerate(tokens) if t.startswith("EXEC.")]
    step = 2
    session.restart()
    session.goto(ex[step] + 1)
    stop = session.inject(f"L{L}.h{h}")
    assert stop.kind == "fault" and f"head {h} of layer {L} silenced from EXEC step {step} on" in stop.text, stop.text
    stop = session.cont()
    assert stop.kind == "mismatch" and session.departure > ex[step], stop.text
    departed = list(session.history)
    assert departed[:session.departure] == tokens[:session.departure]
    session.goto(ex[step] - 1)  # before the fault: re-executed on the checkpoint's weights
    session.goto(ex[step] + 1)
    assert session.history[:ex[step] + 1] == tokens[:ex[step] + 1]
    session.goto(len(departed))
    assert session.history == departed
    session.clear_faults()
    session.finish()
    assert session.history == tokens and session.departure is None


async def _submit_fault(app, pilot, text):
    """Open the fault form (key ``i``), type ``text``, press enter and let the model finish."""
    from textual.widgets import Input

    await pilot.press("i")
    await pilot.pause()
    app.screen.query_one(Input).value = text
    await pilot.press("enter")
    await pilot.pause()
    await app.workers.wait_for_complete()
    await pilot.pause()


@sync
async def test_fault_form_injects_and_clears(shared):
    from app.debugger.app import DebugApp

    shared.breakpoints = Breakpoints()
    shared.clear_faults()
    shared.restart()
    app = DebugApp(lambda p: shared, watch=False, show_timing=False)
    async with app.run_test(size=(120, 40)) as pilot:
        await app.workers.wait_for_complete()
        await pilot.pause()
        await _submit_fault(app, pilot, "mem[3]=77")
        assert app.frame.injected and "mem[3]=77@" in app.frame.injected[0]
        assert app.frame.state.memory[3].value == 77
        assert "fault injected" in app.query_one(StatusBar).render().plain
        await _submit_fault(app, pilot, "nope[1]")
        assert "no array argument 'nope'" in app.query_one(StatusBar).message
        await _submit_fault(app, pilot, "clear")
        assert not app.frame.injected and not shared.faults


@pytest.mark.parametrize("engine", ["hf", "fast"])
def test_probe_names_the_register_row_a_record_writes(engine, request, kernel, trace):
    """The pass that feeds a lane-value record ``S.l.x`` (after ``R.r``, in an EXEC step of warp w;
    tokens from the interpreter's trace) writes register r of lane l of warp w: the probe must name
    that row in the layer the layout gives for the register file, and probing leaves the run's
    cache bit for bit as it was."""
    tokens, _ = trace
    want = None
    for i, t in enumerate(tokens):
        if t.startswith("EXEC."):
            warp = int(t.split(".")[2])
        elif t.startswith("R."):
            reg = int(t.split(".")[1])
        elif t.startswith("S.") and i > 0 and tokens[i - 1].startswith("R."):
            want = (i, warp, reg, int(t.split(".")[1]))
            break
    i, w, r, lane = want
    session = request.getfixturevalue("session" if engine == "hf" else "fast_session")
    gpu = session.backend.gpu
    session.goto(i + 2)  # pass i + 2 feeds token i
    assert session.frame(session.here()).probe is None  # off: not computed
    bits = cache_bits(session.backend.run.cache)
    session.probe_on = True
    try:
        f = session.frame(session.here())
    finally:
        session.probe_on = False
    p = f.probe
    assert p.pos == i + 2 and p.token == tokens[i + 1]
    assert len(p.layers) == len(gpu.layout["layers"])
    layer = gpu.layout["state"]["registers"]["layer"]
    assert any(x.endswith(f"r{r}@w{w}.l{lane}") for x in p.layers[layer].writes), p.layers[layer].writes
    assert [lp.stage for lp in p.layers] == [L["stage"] for L in gpu.layout["layers"]]
    assert any(lp.groups for lp in p.layers)
    # the detail of a layer (keys ] and [): its ports as the layout says, every changed group's channels
    for lp, L in zip(p.layers, gpu.layout["layers"]):
        assert lp.ports == (L["reads"], L["writes"])
        assert list(lp.values) == [g for g, _ in lp.groups]
        widths = {g["group"]: g["width"] for g in gpu.layout["residual"]}
        assert all(len(v) == widths[g] for g, v in lp.values.items())
    after = cache_bits(session.backend.run.cache)
    assert bits.keys() == after.keys() and all(torch.equal(bits[k], after[k]) for k in bits)
