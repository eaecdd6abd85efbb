"""qgpu-debug without a model: breakpoints, keymaps, ROM text, exact snapshots of tensors,
the replay file (round trip and every kind of bad file), the command line's errors.

Expected values are written by hand here (or are the inputs themselves)."""

from __future__ import annotations

import gzip
import json

import pytest
import torch

from app.debugger import keymap as km
from app.debugger.breakpoints import Breakpoint, BreakpointError, Breakpoints, parse
from app.debugger.layout import base_layers, ranges, rom_text, stage_layers
from engine.snapshot import PackedTensor, capture

from test_debug_support import FIXTURE, divergence_program


# --- breakpoints ---------------------------------------------------------------------------------
@pytest.mark.parametrize("text, block, warp, line", [
    ("EXEC(3,1)", 3, 1, None), ("exec( 3 , * )", 3, None, None), ("EXEC(*,2)", None, 2, None),
    ("EXEC(*,*)", None, None, None), ("B7", 7, None, None), ("line 12", None, None, 12), ("12", None, None, 12),
])
def test_breakpoint_forms(text, block, warp, line):
    bp = parse(text)
    assert (bp.block, bp.warp, bp.line) == (block, warp, line)


@pytest.mark.parametrize("text", ["EXEC(3)", "EXEC(a,1)", "exec 3,1", "", "B", "line x", "EXEC(-1,0)"])
def test_breakpoint_errors_say_what_is_expected(text):
    with pytest.raises(BreakpointError, match=r"not a breakpoint: .*EXEC\(b,w\)"):
        parse(text)


def test_breakpoint_matching_with_wildcards():
    prog = divergence_program()
    any_warp = parse("EXEC(3,*)")
    assert any_warp.matches(3, 0, prog) and any_warp.matches(3, 1, prog)
    assert not any_warp.matches(4, 0, prog)
    w1 = parse("EXEC(*,1)")
    assert w1.matches(0, 1, prog) and w1.matches(9, 1, prog) and not w1.matches(0, 0, prog)
    exact = parse("EXEC(2,0)")
    assert exact.matches(2, 0, prog) and not exact.matches(2, 1, prog)
    exact.enabled = False
    assert not exact.matches(2, 0, prog)
    bps = Breakpoints([parse("EXEC(5,*)")])
    assert bps.hit("EXEC.5.1.3", prog).spec == "EXEC(5,*)"
    assert bps.hit("EXEC.4.1.3", prog) is None
    assert bps.hit("R.1", prog) is None  # only EXEC tokens stop


def test_line_breakpoints_follow_the_program():
    prog = divergence_program()
    # the line 'r = 333;' of samples/divergence_nested.cu
    line = next(n for n, t in enumerate(prog.source.splitlines(), 1) if "r = 333" in t)
    bp = parse(f"line {line}")
    blocks = {b.index for b in prog.blocks if line in b.cuda_lines}
    assert blocks and bp.blocks(prog) == blocks
    assert all(bp.matches(b, 0, prog) for b in blocks)
    assert bp.makes_sense(prog, 2) is None
    assert "no block" in parse("line 1").makes_sense(prog, 2)


def test_revalidate_drops_breakpoints_that_cannot_hit():
    prog = divergence_program()
    n = len(prog.blocks)
    bps = Breakpoints([parse(f"EXEC({n - 1},*)"), parse(f"EXEC({n + 3},*)"), parse("EXEC(*,1)"), parse("EXEC(*,5)")])
    dropped = bps.revalidate(prog, warps=2)
    assert [bp.spec for bp in bps.items] == [f"EXEC({n - 1},*)", "EXEC(*,1)"]
    assert len(dropped) == 2 and f"{n} blocks" in dropped[0] and "2 warps" in dropped[1]


def test_adding_the_same_breakpoint_twice_keeps_one():
    bps = Breakpoints()
    a = bps.add(Breakpoint(block=3))
    a.enabled = False
    b = bps.add(parse("EXEC(3,*)"))
    assert a is b and b.enabled and len(bps.items) == 1


# --- keys ------------------------------------------------------------------------------------------
def test_every_binding_has_an_id_and_a_description_and_gdb_keys():
    from app.debugger.app import DebugApp

    ids = [b.id for b in DebugApp.BINDINGS]
    assert all(ids) and len(set(ids)) == len(ids)
    assert all(b.description for b in DebugApp.BINDINGS)
    keys = {b.id: b.key for b in DebugApp.BINDINGS}
    assert (keys["step"], keys["next"], keys["continue"], keys["finish"]) == ("s", "n", "c", "f")
    assert (keys["reverse-step"], keys["reverse-next"], keys["reverse-continue"], keys["reverse-finish"]) == \
        ("S", "N", "C", "F")
    assert (keys["breakpoint"], keys["help"], keys["quit"]) == ("b", "question_mark", "q")


def test_keymap_file(tmp_path):
    f = tmp_path / "keys.toml"
    f.write_text('[keys]\nstep = "j"\nreverse-step = "k, up"\n')
    m = km.load_keymap(str(f))
    assert m == {"step": "j", "reverse-step": "k,up"}
    assert km.effective_keys(m)["step"] == "j" and km.effective_keys(m)["next"] == "n"


@pytest.mark.parametrize("text, message", [
    ('[keys]\nstpe = "j"\n', "unknown binding id stpe"),
    ("[keys\n", "not a TOML keymap"),
    ('step = "j"\n', r"needs a \[keys\] table"),
    ("[keys]\nstep = 3\n", "give the key"),
])
def test_bad_keymap_files(tmp_path, text, message):
    f = tmp_path / "keys.toml"
    f.write_text(text)
    with pytest.raises(km.KeymapError, match=message):
        km.load_keymap(str(f))


def test_missing_keymap_file_is_an_error_only_when_given(tmp_path, monkeypatch):
    monkeypatch.setenv("HOME", str(tmp_path))
    monkeypatch.delenv("QGPU_DEBUG_KEYMAP", raising=False)
    assert km.load_keymap(None) == {}
    with pytest.raises(km.KeymapError, match="no such keymap file"):
        km.load_keymap(str(tmp_path / "nope.toml"))


# --- ROM text and the layer table -----------------------------------------------------------------
def test_rom_rows_as_text():
    from compiler.circuit.protocol import OPCODE_ID, TERM_SLOT, TERMINATORS

    add = {"op": OPCODE_ID["add"], "dst": 3, "a": 1, "b": 32, "imm0": 0xF6, "imm1": 0xFF, "imm2": 0xFF, "imm3": 0xFF}
    assert rom_text(0, add) == "add r3 <- r1, -10"
    fwd = {"op": OPCODE_ID["setp.lt"], "dst": 16, "a": 17, "b": 0}
    assert rom_text(1, fwd) == "setp.lt p0 <- s1"
    guarded = {"op": OPCODE_ID["mov"], "dst": 2, "a": 5, "guard": (8 << 1) | 1}
    assert rom_text(1, guarded) == "@!ps0 mov r2 <- r5"
    # no dst field: a block temporary, named by its slot (forwarded, never written back)
    assert rom_text(2, {"op": OPCODE_ID["param"], "a": 32, "imm0": 1}) == "param s2 <- 1"
    assert rom_text(3, {"op": OPCODE_ID["setp.lt"], "a": 1, "b": 2}) == "setp.lt ps3 <- r1, r2"
    assert rom_text(3, {"op": OPCODE_ID["mov.pred"]}) == "mov.pred ps3"
    assert rom_text(4, {"op": OPCODE_ID["st.global"], "a": 1, "c": 2}) == "st.global r1, 0, r2"
    br = {"op": TERMINATORS.index("branch"), "a": 3, "b": 8, "guard": (1 << 1)}
    assert rom_text(TERM_SLOT, br) == "@p0 branch B3 else B8"
    assert rom_text(TERM_SLOT, {"op": TERMINATORS.index("exit")}) == "exit"
    assert rom_text(TERM_SLOT, {"op": TERMINATORS.index("jump"), "a": 4}) == "jump B4"


def test_layer_ranges_and_stages():
    assert ranges([0, 1, 2, 6, 11, 12]) == "L0-2 6 11-12"
    assert ranges([]) == "-"
    layout = {"layers": [
        {"index": 0, "stage": "fetch"}, {"index": 1, "stage": "fetch+decode"}, {"index": 2, "stage": "decode"},
        {"index": 3, "stage": "decode+execute+writeback"}, {"index": 4, "stage": "writeback"},
        {"index": 5, "stage": ""}]}
    st = stage_layers(layout)
    assert st == {"fetch": [0, 1], "decode": [1, 2, 3], "execute": [3], "writeback": [3, 4]}
    assert base_layers(layout) == []
    assert base_layers({**layout, "merge": {"circuit_layers": 6, "base_layers": 3}}) == [6, 7, 8]


# --- exact tensor snapshots -------------------------------------------------------------------------
@pytest.mark.parametrize("dtype", [torch.float32, torch.bfloat16])
def test_packed_tensors_are_bit_exact(dtype):
    t = torch.zeros(3, 5, 7, dtype=dtype)
    t[0, 1, 2] = 1.5
    t[2, 4, 6] = -0.0  # a negative zero must survive
    t[1, 0, 0] = float("nan")
    t[1, 2, 3] = -3.25e-3
    p = PackedTensor.pack(t)
    assert p.index.numel() == 4
    u = p.unpack()
    assert u.dtype == dtype and u.shape == t.shape
    iview = {torch.float32: torch.int32, torch.bfloat16: torch.int16}[dtype]
    assert torch.equal(u.view(iview), t.view(iview))


def test_cache_snapshot_restores_every_attribute():
    from transformers.cache_utils import DynamicCache

    c = DynamicCache()
    k = torch.randn(1, 1, 5, 8)
    c.update(k, k * 2, 0)
    snap = capture(c)
    c.update(torch.ones(1, 1, 1, 8), torch.ones(1, 1, 1, 8), 0)  # the original moves on
    back = snap.restore()
    assert back.get_seq_length() == 5
    assert torch.equal(back.layers[0].keys, k) and torch.equal(back.layers[0].values, k * 2)
    assert c.get_seq_length() == 6


# --- replay files -------------------------------------------------------------------------------------
def _rewrite(src, dst, edit):
    lines = gzip.decompress(src.read_bytes()).decode().splitlines(keepends=True)
    edited = edit(list(lines))
    assert edited != lines, "the edit changed nothing"
    dst.write_bytes(gzip.compress("".join(edited).encode()))


def test_fixture_replay_loads():
    from app.debugger.replay import load

    rec = load(FIXTURE)
    assert rec.kernel.program.kernel == "divergence_nested"
    assert rec.tokens[0].startswith("EXEC.") and rec.tokens[-1] == "END"
    assert len(rec.states) == len(rec.tokens) and rec.rom


def test_replay_write_read_round_trip(tmp_path):
    """A recording written by Recorder reads back as the same tokens, margins and states."""
    from app.debugger.backends import ReplayBackend
    from app.debugger.replay import Recorder, load
    from app.debugger.session import Session

    rec = load(FIXTURE)
    s = Session(ReplayBackend(rec), rec.kernel, history=(rec.tokens, rec.margins))
    out = tmp_path / "again.qgpu-replay"
    r = Recorder(out)
    r.begin(s)
    s.backend.seek(1, s.history)
    for n, (t, m, st) in enumerate(zip(rec.tokens, rec.margins, rec.states)):
        r.add(n, t, m, st)
    r.close()
    back = load(out)
    assert back.tokens == rec.tokens and back.margins == rec.margins
    assert [x.to_json() for x in back.states] == [x.to_json() for x in rec.states]
    assert back.rom == rec.rom
    assert back.kernel.program.blocks == rec.kernel.program.blocks
    assert back.kernel.program.source == rec.kernel.program.source


def test_truncated_replay_files(tmp_path):
    from app.debugger.replay import ReplayError, load

    raw = FIXTURE.read_bytes()
    cut = tmp_path / "cut.qgpu-replay"
    cut.write_bytes(raw[: len(raw) // 2])
    with pytest.raises(ReplayError, match="truncated replay file: the compressed data ends early"):
        load(cut)
    no_end = tmp_path / "noend.qgpu-replay"
    _rewrite(FIXTURE, no_end, lambda lines: lines[:-1])
    with pytest.raises(ReplayError, match=r"truncated replay file: it ends after token \d+ without its end record"):
        load(no_end)
    plain = tmp_path / "plain.qgpu-replay"
    text = gzip.decompress(raw).decode()
    plain.write_text(text[: len(text) - 200])  # plain JSON lines cut mid-line
    with pytest.raises(ReplayError, match="truncated replay file: line .* is cut off"):
        load(plain)


def test_corrupt_replay_files(tmp_path):
    from app.debugger.replay import ReplayError, load

    raw = bytearray(FIXTURE.read_bytes())
    flipped = tmp_path / "flipped.qgpu-replay"
    raw[len(raw) // 2] ^= 0xFF
    flipped.write_bytes(bytes(raw))
    with pytest.raises(ReplayError, match="corrupt replay file"):
        load(flipped)
    changed = tmp_path / "changed.qgpu-replay"
    _rewrite(FIXTURE, changed, lambda lines: [ln.replace('"token":"S.0.', '"token":"S.1.', 1) for ln in lines])
    with pytest.raises(ReplayError, match="checksum does not match"):
        load(changed)
    garbage = tmp_path / "garbage.qgpu-replay"
    _rewrite(FIXTURE, garbage, lambda lines: lines[:3] + ["{not json\n"] + lines[3:])
    with pytest.raises(ReplayError, match="corrupt replay file: line 4 is not JSON"):
        load(garbage)
    other = tmp_path / "other.txt"
    other.write_text("hello\n")
    with pytest.raises(ReplayError, match="not a qgpu replay file"):
        load(other)


def test_version_mismatch_names_both_versions(tmp_path):
    from app.debugger.replay import ReplayError, load

    def bump(lines):
        hdr = json.loads(lines[0])
        hdr["version"] = 99
        return [json.dumps(hdr) + "\n"] + lines[1:]

    f = tmp_path / "v99.qgpu-replay"
    _rewrite(FIXTURE, f, bump)
    with pytest.raises(ReplayError, match="replay format version 99; this qgpu-debug reads version 2"):
        load(f)


# --- the command line -------------------------------------------------------------------------------
def test_cli_errors_are_one_message_with_a_location(tmp_path, capsys):
    from app.debugger.cli import main

    assert main(["--replay", str(tmp_path / "missing.qgpu-replay")]) == 2
    err = capsys.readouterr().err
    assert err.strip() == f"{tmp_path / 'missing.qgpu-replay'}: error: no such file"
    bad = tmp_path / "bad.cu"
    bad.write_text("// qgpu: --grid 1 --block 4 out=zeros:4\n__global__ void k(int* out) {\n  out[0] = ;\n}\n")
    assert main([str(bad), "--model", str(tmp_path)]) == 2  # not a checkpoint: reported before compiling
    assert "not a qgpu checkpoint" in capsys.readouterr().err
    with pytest.raises(SystemExit) as e:
        main([])
    assert e.value.code == 2
    assert "give a kernel file" in capsys.readouterr().err
    assert main(["--replay", str(FIXTURE), "samples/dot.cu"]) == 2
    assert "--replay plays a recorded session" in capsys.readouterr().err


def test_cli_replay_without_ui_summarises_the_recording(capsys):
    from app.debugger.cli import main

    assert main(["--replay", str(FIXTURE), "--no-ui"]) == 0
    out = capsys.readouterr().out
    assert "kernel divergence_nested" in out and "model = interpreter" in out


def test_cli_compile_error_before_the_ui(tmp_path, capsys):
    """A CUDA error is reported with file:line before any model is loaded (the checkpoint
    directory only needs its layout for the machine's sizes)."""
    import dataclasses

    from app.debugger.cli import main
    from test_debug_support import CFG3

    ck = tmp_path / "ck"
    ck.mkdir()
    (ck / "qgpu_layout.json").write_text(json.dumps({"machine": dataclasses.asdict(CFG3)}))
    bad = tmp_path / "bad.cu"
    bad.write_text("// qgpu: --grid 1 --block 4 out=zeros:4\n__global__ void k(int* out) {\n  out[0] = ;\n}\n")
    assert main([str(bad), "--model", str(ck)]) == 2
    err = capsys.readouterr().err
    assert f"{bad}:3:" in err and "error" in err and "Traceback" not in err
    good = tmp_path / "good.cu"
    good.write_text("// qgpu: --grid 1 --block 4 out=zeros:4\n__global__ void k(int* out) { out[0] = 1; }\n")
    assert main([str(good), "--model", str(ck), "--grid", "9"]) == 2
    assert "needs 9 warps" in capsys.readouterr().err


def test_docs_list_every_binding_id():
    from test_debug_support import ROOT

    doc = (ROOT / "docs" / "debugger.md").read_text()
    missing = [k.id for k in km.KEYS if k.id not in doc]
    assert not missing


# --- watchpoints and conditional breakpoints (on the recorded replay; expectations from the interpreter)
def _interpreter_steps():
    """The interpreter's launch of the fixture's kernel, step by step: (events, memory before each
    step, registers before each step as {(warp, lane, reg): value})."""
    from engine.interpreter import Interpreter

    from test_debug_support import replay_session

    k = replay_session().kernel
    it = Interpreter(k.program, k.launch, k.cfg)
    events, mem, regs = [], [], []
    while not it.done():
        mem.append(list(it.memory))
        regs.append({(w.warp, lane, r): w.regs[lane][r] & 0xFFFFFFFF for w in it.warps
                     for lane in range(k.cfg.lanes) for r in range(k.cfg.regs)})
        ev = it.step()
        if ev is None:
            break
        events.append(ev)
    mem.append(list(it.memory))
    return k, events, mem, regs


def test_watchpoint_stops_where_the_word_changes_forwards_and_back():
    from app.debugger.widgets.data import MemoryPane

    from test_debug_support import replay_session

    k, events, mem, _ = _interpreter_steps()
    addr = k.launch.layout.arrays["out"][0] + 5  # in[5] = -12: out[5] = 333
    changes = [(s, mem[s][addr], mem[s + 1][addr]) for s in range(len(events)) if mem[s][addr] != mem[s + 1][addr]]
    assert [c[1:] for c in changes] == [(0, 333)]
    written = changes[0][0]
    s = replay_session()
    s.start()
    s.add_breakpoint("watch out[5]")
    stop = s.cont()
    assert stop.kind == "breakpoint" and "watch out[5]" in stop.text and "0 -> 333" in stop.text, stop.text
    f = s.frame(stop)
    assert f.state.memory[addr].value == 333 and f.step.index in (written, written + 1)
    hit = s.pos
    assert "▮ watched" in MemoryPane().draw(f, 20, 80).plain
    assert s.cont().kind == "end"  # written once
    stop = s.back_cont()
    assert stop.kind == "breakpoint" and s.pos == hit, stop.text
    s.goto(2)
    assert s.back_cont().kind == "back"  # nothing changes it before


def test_conditional_breakpoints_on_memory_and_registers():
    from test_debug_support import replay_session

    k, events, mem, regs = _interpreter_steps()
    base = k.launch.layout.arrays["out"][0]
    # the element of out written first, and its value: the condition holds from the next step on
    i, v = min(((i, mem[-1][base + i]) for i in range(8)),
               key=lambda iv: next(j for j in range(len(mem)) if mem[j][base + iv[0]] == iv[1]))
    want = next(j for j in range(len(events)) if mem[j][base + i] == v)
    assert v != 0 and want > 0, (i, v, want)
    s = replay_session()
    s.start()
    s.add_breakpoint(f"EXEC(*,*) if out[{i}] == {v}")
    stop = s.cont()
    assert stop.kind == "breakpoint" and s.frame(stop).step.index == want, stop.text
    # a warp-relative register: the first step of warp 1 whose lane 1 holds a value seen there
    steps1 = [j for j, e in enumerate(events) if e.warp == 1]
    r, v = next((r, regs[j][(1, 1, r)]) for j in steps1 for r in range(1, k.cfg.regs)
                if regs[j][(1, 1, r)] not in (0, regs[steps1[0]][(1, 1, r)]))
    want = next(j for j in steps1 if regs[j][(1, 1, r)] == v)
    s = replay_session()
    s.start()
    s.add_breakpoint(f"EXEC(*,1) if r{r}@l1 == {v - (1 << 32) if v >> 31 else v}")
    stop = s.cont()
    assert stop.kind == "breakpoint" and s.frame(stop).step.index == want, stop.text
    s.add_breakpoint(f"EXEC(*,*) if r{r}@l1 != {v}")  # another one: warp 0 hits before long
    assert "if r" in s.cont().text


@pytest.mark.parametrize("text, message", [
    ("watch r4", "not a watchpoint"),
    ("EXEC(1,*) if r2 == 3", "not a condition"),
    ("watch out[5] if out[1] == 2", "not a watchpoint"),
    ("watch nope[1]", "no array argument 'nope'"),
    ("B1 if r2@l9 == 0", "lanes 0..3"),
    ("watch r2@l1", "name the warp"),
])
def test_bad_watchpoints_and_conditions_say_why(text, message):
    from test_debug_support import replay_session

    s = replay_session()
    with pytest.raises(BreakpointError, match=message):
        s.add_breakpoint(text)


def test_huge_and_other_machine_replay_files_are_refused(tmp_path, monkeypatch):
    """A file beyond the size limit (sparse on disk, or a small gzip that inflates beyond it) is refused
    before it is read whole; a recording whose program was compiled for another machine than its
    header names is refused naming both machines."""
    from app.debugger import replay
    from app.debugger.replay import ReplayError, load

    huge = tmp_path / "huge.qgpu-replay"
    with open(huge, "wb") as f:
        f.truncate(replay.MAX_BYTES + 1)
    with pytest.raises(ReplayError, match="larger than 1024 MB"):
        load(huge)
    monkeypatch.setattr(replay, "MAX_BYTES", 100_000)  # the fixture inflates to ~235 KB
    with pytest.raises(ReplayError, match="larger than 0 MB uncompressed"):
        load(FIXTURE)
    monkeypatch.undo()

    def other_machine(lines):  # the program says 4:60, the header 3:32; the checksum is made anew
        import hashlib

        hdr = json.loads(lines[0])
        m = json.loads(json.dumps(hdr["machine"]))
        m["rom_blocks"], m["block"]["max_instrs"] = 60, 4
        hdr["program"]["machine"] = m
        out = [json.dumps(hdr) + "\n"] + lines[1:-1]
        end = json.loads(lines[-1])
        end["sha256"] = hashlib.sha256("".join(out).encode()).hexdigest()
        return out + [json.dumps(end) + "\n"]

    f = tmp_path / "other.qgpu-replay"
    _rewrite(FIXTURE, f, other_machine)
    with pytest.raises(ReplayError) as e:
        load(f)
    text = str(e.value)
    assert len(text.splitlines()) == 1 and "does not build" in text and "4:60" in text and "3:32" in text, text


def test_probe_pane_shows_one_layer_in_detail():
    """The probe pane's detail view (keys ] and [) of a hand-made probe: the selected layer alone,
    with its ports, each changed group's channels and every state row it wrote."""
    from types import SimpleNamespace

    from app.debugger.probe import LayerProbe, Probe
    from app.debugger.widgets.probe import ProbePane

    layers = [LayerProbe(0, "fetch", doc="latch", groups=[("latch.kind", "R")], values={"latch.kind": [0.0, 1.0]},
                         ports=(["tok.kind"], ["latch.kind"])),
              LayerProbe(1, "decode", writes=[f"regs.0.a r{r}@w0.l1" for r in range(1, 9)]),
              LayerProbe(2, "execute")]
    f = SimpleNamespace(probe=Probe(5, "S.1.7", layers))
    pane = ProbePane()
    every = pane.draw(f, 20, 120).plain
    assert "L0" in every and "L1" in every and "+2" in every  # the row view shows 6 writes, then "+2"
    pane.selected = 0
    one = pane.draw(f, 20, 120).plain.splitlines()
    assert one[0].startswith("L0 fetch") and "latch" in one[0]
    assert one[1] == "reads:  tok.kind" and one[2] == "writes: latch.kind"
    assert one[3].startswith("latch.kind = R") and one[3].endswith("0 1")
    pane.selected = 1
    text = pane.draw(f, 20, 120).plain
    assert "regs.0.a r8@w0.l1" in text and "L0" not in text  # every write, no other layer
    pane.selected = 2
    assert "no change at this position" in pane.draw(f, 20, 120).plain
