"""Fault injection (engine/faults.py, ``qgpu run --inject``; issue 29).

The reference for a faulted launch is the interpreter with the same change made to its state
before the same EXEC step (plain Python, independent of the model). Random single faults (150 in
CI, 300 with QGPU_FULL=1) (a bit of a register of a lane, or of a memory word) are injected into the model's state; for
each, the model must predict every token of the faulted interpreter's trace and end with its memory.
Then each fault is either *flagged* (its trace or final memory differs from the fault-free run's, which
is what ``--check-replay`` compares) or *harmless* (the value it hit was never read again and is not
in the final memory): a fault is never silently absorbed by the model in a way the interpreter would
not absorb it.

ROM field faults (``rom[B.S].FIELD``) have no interpreter counterpart: each must read back from the
state as written, and one in a block the launch never runs again must change nothing.
"""

from __future__ import annotations

import json
import os
import random
import re

import pytest

from conftest import ROOT

from app.cli import main
from compiler.circuit.protocol import FIELDS, OPCODES, TERM_SLOT, encode_rom, trace_tokens
from compiler.errors import LaunchError, RuntimeFault
from compiler.kernel_compiler import compile_file
from compiler.machine.config import parse_machine
from engine.faults import Fault, exec_positions, faulted_run, inject_model, parse_fault
from engine.interpreter import Interpreter
from engine.launch import build_launch, parse_assignments, read_header

CFG3 = parse_machine("3:32")
VECTOR_ADD = ROOT / "samples" / "vector_add.cu"


def _launch(path, cfg=CFG3):
    h = read_header(path)
    prog = compile_file(path, h.kernel, cfg)
    return prog, build_launch(prog, h.grid, h.block, parse_assignments(h.args), cfg)


def test_parse_fault_forms_and_errors():
    prog, launch = _launch(VECTOR_ADD)
    f = parse_fault("r4@w1.l2^3@5", launch, CFG3, steps=22)
    assert (f.kind, f.reg, f.warp, f.lane, f.bit, f.step) == ("reg", 4, 1, 2, 3, 5)
    assert f.new_value(0b1000) == 0 and f.new_value(0) == 8
    f = parse_fault("out[2]=-1@0", launch, CFG3)
    assert (f.kind, f.addr, f.new_value(5)) == ("mem", launch.layout.arrays["out"][0] + 2, 0xFFFFFFFF)
    assert parse_fault("mem[40]@3", launch, CFG3).new_value(6) == 7  # default: flip bit 0
    for bad, why in [("r0@w0.l0@1", r"r1\.\.r15"), ("r4@w2.l0@1", r"warps 0\.\.1"), ("r4@w0.l4@1", r"lanes"),
                     ("mem[126]@0", r"0\.\.125"), ("nope[1]@0", r"no array argument 'nope'"),
                     ("out[8]@0", r"out has 8 elements"), ("r4@w0.l0^32@1", r"bit 32"),
                     ("r4@w0.l0@22", r"22 EXEC steps"), ("r4 w0 l0", r"TARGET \[OP\] @STEP")]:
        with pytest.raises(LaunchError, match=why):
            parse_fault(bad, launch, CFG3, steps=22)


def test_faulted_interpreter_sees_the_change():
    """The interpreter side alone: out[1] = a[1] + b[1]; a[1] set to 100 before step 0 gives 120."""
    prog, launch = _launch(VECTOR_ADD)
    base = launch.layout.arrays["a"][0]
    _, res = faulted_run(prog, launch, CFG3, Fault("mem", step=0, addr=base + 1, value=100))
    assert res.arrays["out"][1] == 120 and res.arrays["out"][0] == 11


def _stepped(gpu, prog, launch, want, pos):
    """A run of the launch teacher-forced through ``want``, and its snapshot just before each EXEC
    step's pass (the state the model reads when that step's EXEC token is fed)."""
    run = gpu.start(prog, launch)
    snaps, done = [], 0
    for p in pos:
        assert run.force(want[done:p + 1]) is None
        done = p + 1
        snaps.append(run.snapshot())
    return run, snaps


KERNELS = ["samples/vector_add.cu", "samples/divergence_nested.cu", "samples/shared_reverse.cu"]
FAULTS = 100 if os.environ.get("QGPU_FULL") else 50
"""Random faults per kernel: 150 in CI (about 40 s on a 2-core CPU), 300 with QGPU_FULL=1."""


def _random_fault(rng: random.Random, steps: int, launch, interp_regs_used: int) -> Fault:
    step = rng.randrange(steps)
    bit = rng.choice([0, 1, 2, 5, 31, rng.randrange(32)])
    if rng.random() < 0.6:
        nwarps = max(t.warp for t in launch.threads) + 1
        return Fault("reg", step=step, warp=rng.randrange(nwarps), lane=rng.randrange(CFG3.lanes),
                     reg=rng.randrange(1, interp_regs_used + 1), bit=bit)
    used = [a for base, n in launch.layout.arrays.values() for a in range(base, base + n)]
    return Fault("mem", step=step, addr=rng.choice(used + [rng.randrange(CFG3.mem_words)]), bit=bit)


@pytest.mark.model
@pytest.mark.parametrize("path", KERNELS)
def test_random_single_faults_are_followed_exactly_and_flagged_or_harmless(fast3, path):
    prog, launch = _launch(ROOT / path)
    clean = Interpreter(prog, launch, CFG3).run()
    want = trace_tokens(clean.trace)
    pos = exec_positions(want)
    run, snaps = _stepped(fast3, prog, launch, want, pos)
    rng = random.Random(f"faults:{path}")
    counts = {"flagged": 0, "harmless": 0, "interpreter fault": 0}
    for _ in range(FAULTS):
        f = _random_fault(rng, len(pos), launch, max(prog.regs_used, 1))
        try:
            faulted, res = faulted_run(prog, launch, CFG3, f, max_steps=4 * len(clean.trace) + 50)
        except RuntimeFault:
            counts["interpreter fault"] += 1  # e.g. a flipped address bit leaves memory: no reference
            continue
        assert faulted[:pos[f.step] + 1] == want[:pos[f.step] + 1]
        run.restore(snaps[f.step])
        inject_model(run, f)
        bad = run.force(faulted[pos[f.step] + 1:])
        assert bad is None, (f"{path} {f}: the model departs from the faulted interpreter at token "
                             f"{pos[f.step] + 1 + bad}: {run.generated[-1]} vs {faulted[pos[f.step] + 1 + bad]}")
        words = [w.value for w in run.memory()]
        assert words == [x & 0xFFFFFFFF for x in res.memory], f"{path} {f}: final memory"
        assert not run.low_margins(), f"{path} {f}: {run.low_margins()}"
        shows = faulted != want or res.memory != clean.memory
        counts["flagged" if shows else "harmless"] += 1
    assert counts["flagged"] >= FAULTS // 8 and counts["harmless"] >= FAULTS // 16, counts
    assert counts["interpreter fault"] <= FAULTS // 4, counts


def _cli(capsys, *argv):
    capsys.readouterr()
    rc = main([str(a) for a in argv])
    out, err = capsys.readouterr()
    return rc, out, err


@pytest.mark.model
def test_qgpu_run_inject_flags_or_leaves_unchanged(ckpt3, capsys):
    """The command line end to end (generated, --check-replay): a fault read by a later step is flagged
    at the token that shows it; one only in the final memory is flagged there; one overwritten before
    it is read changes nothing."""
    base = ["run", VECTOR_ADD, "--backend", "model", "--model", ckpt3, "--check-replay"]
    rc, out, err = _cli(capsys, *base, "--inject", "a[1]=100@0")
    assert rc == 4 and "fault a[1]=100@0: memory word 1 0x2 -> 0x64 before EXEC step 0" in err
    m = re.search(r"model:\s+(\S+)\s+interpreter:\s+(\S+)", err)
    assert m and m.group(1) != m.group(2), err
    rc, out, err = _cli(capsys, *base, "--inject", "mem[120]^3@2")
    assert rc == 4 and "final memory" in err and "word 120: model 8, interpreter 0" in err
    # a register value the interpreter never reads again (found by running the faulted interpreter)
    prog, launch = _launch(VECTOR_ADD)
    clean = Interpreter(prog, launch, CFG3).run()
    spec = next(f"r{r}@w0.l0=12345@{k}" for k in range(len(clean.trace)) for r in range(1, prog.regs_used + 1)
                if _unseen(prog, launch, clean, Fault("reg", step=k, reg=r, value=12345)))
    rc, out, err = _cli(capsys, *base, "--inject", spec, "--json")
    assert rc == 0, err
    res = json.loads(out)
    assert res["replay"] == "exact" and res["fault"]["new"] == 12345 and res["fault"]["spec"] == spec
    assert res["arrays"]["out"] == [11, 22, 33, 44, -45, -54, -63, 0]


def _unseen(prog, launch, clean, fault) -> bool:
    tokens, res = faulted_run(prog, launch, CFG3, fault)
    return tokens == trace_tokens(clean.trace) and res.memory == clean.memory


def test_parse_rom_faults():
    prog, launch = _launch(VECTOR_ADD)
    f = parse_fault("rom[3.t].a=5@1", launch, CFG3)
    assert (f.kind, f.block, f.slot, f.field, f.new_value(0)) == ("rom", 3, TERM_SLOT, "a", 5)
    assert f.where() == "ROM block 3 the terminator field a"
    f = parse_fault("rom[0.2].imm0^7@0", launch, CFG3)
    assert (f.slot, f.field, f.new_value(0x80), f.new_value(1)) == (2, "imm0", 0, 0x81)
    for bad, why in [("rom[32.0].op@0", r"blocks 0\.\.31"), ("rom[0.3].op@0", r"slots 0\.\.2 and t"),
                     ("rom[0.0].opcode@0", r"no ROM field 'opcode'"), ("rom[0.0].op^8@0", r"bit 8 is not in 0\.\.7"),
                     ("rom[0.0].op=256@0", r"one byte")]:
        with pytest.raises(LaunchError, match=why):
            parse_fault(bad, launch, CFG3)
    with pytest.raises(ValueError, match="not its ROM image"):
        faulted_run(prog, launch, CFG3, parse_fault("rom[0.0].op@0", launch, CFG3))


ROM_FAULTS = 40


@pytest.mark.model
def test_rom_faults_read_back_and_change_nothing_the_launch_does_not_run_into(fast3):
    """Random ROM field faults on vector_add (a bit of a field the program's ROM image sets, or of a
    random field of a random slot anywhere in the ROM): each reads back from the state as written (``ModelRun.rom``); one in a block
    no later EXEC step runs leaves every token and the final memory as the fault-free interpreter
    has them (provably harmless); the others are counted, and some of them must show."""
    prog, launch = _launch(VECTOR_ADD)
    clean = Interpreter(prog, launch, CFG3).run()
    want = trace_tokens(clean.trace)
    pos = exec_positions(want)
    blocks = [int(want[p].split(".")[1]) for p in pos]  # EXEC.b.w.m: the block of each step
    run, snaps = _stepped(fast3, prog, launch, want, pos)
    rng = random.Random("rom faults")
    image = sorted((b, s, name) for (b, s), fields in encode_rom(prog, CFG3).items() for name in fields)
    faults = []
    for _ in range(ROM_FAULTS):
        if rng.random() < 0.5:
            block, slot, field = rng.choice(image)
        else:
            block, slot, field = (rng.randrange(CFG3.rom_blocks), rng.choice([*range(CFG3.block.max_instrs), TERM_SLOT]),
                                  rng.choice(FIELDS))
        faults.append(Fault("rom", step=rng.randrange(len(pos)), block=block, slot=slot, field=field,
                            bit=rng.randrange(8)))
    counts = {"shows": 0, "unchanged": 0, "not run into": 0}
    # latest step first: a run that departed is still at least as long as any earlier step's snapshot
    for f in sorted(faults, key=lambda f: -f.step):
        step, block, slot = f.step, f.block, f.slot
        run.restore(snaps[step])
        old, new = inject_model(run, f)
        assert run.rom().get((block, slot), {}).get(f.field, 0) == new != old
        bad = run.force(want[pos[step] + 1:])
        same = bad is None and [w.value for w in run.memory()[:len(clean.memory)]] == \
            [v & 0xFFFFFFFF for v in clean.memory]
        if block not in blocks[step:]:
            assert same, f"{f}: block {block} is never run after step {step}, yet the launch changed"
            counts["not run into"] += 1
        else:
            counts["unchanged" if same else "shows"] += 1
    assert counts["not run into"] >= 3 and counts["shows"] >= 3, counts


@pytest.mark.model
def test_qgpu_run_inject_rom_field(ckpt3, capsys):
    """Through the command line: vector_add's add turned into a sub is flagged (exit 4); the same
    change in a block the launch never runs leaves the output unchanged."""
    prog, launch = _launch(VECTOR_ADD)
    rom = encode_rom(prog, CFG3)
    (b, s), = [(b, s) for (b, s), f in rom.items() if s != TERM_SLOT and f.get("op") == OPCODES.index("add")][:1]
    sub = OPCODES.index("sub")
    base = ["run", VECTOR_ADD, "--backend", "model", "--model", ckpt3, "--check-replay"]
    rc, out, err = _cli(capsys, *base, "--inject", f"rom[{b}.{s}].op={sub}@0")
    assert rc == 4 and f"ROM block {b} slot {s} field op" in err and "replay mismatch" in err, err
    unused = len(prog.blocks) + 2
    rc, out, err = _cli(capsys, *base, "--inject", f"rom[{unused}.0].op={sub}@0", "--json")
    assert rc == 0, err
    res = json.loads(out)
    assert res["replay"] == "exact" and res["fault"]["new"] == sub
    assert res["arrays"]["out"] == [11, 22, 33, 44, -45, -54, -63, 0]


def test_parse_unit_faults():
    prog, launch = _launch(VECTOR_ADD)
    f = parse_fault("L20.n117@3", launch, CFG3)
    assert (f.kind, f.layer, f.unit, f.step, f.silences) == ("neuron", 20, 117, 3, True)
    assert f.where() == "neuron 117 of layer 20"
    f = parse_fault(" L7.h2 @ 0", launch, CFG3)
    assert (f.kind, f.layer, f.unit, f.silences) == ("head", 7, 2, True)
    assert not parse_fault("r4@w0.l0@1", launch, CFG3).silences
    with pytest.raises(LaunchError, match="takes no"):
        parse_fault("L7.h2^1@0", launch, CFG3)
    with pytest.raises(LaunchError, match="TARGET"):
        parse_fault("L7.x2@0", launch, CFG3)
    with pytest.raises(ValueError, match="not a network"):
        faulted_run(prog, launch, CFG3, parse_fault("L7.h2@0", launch, CFG3))


UNIT_FAULTS = 32


@pytest.mark.model
def test_silenced_units_are_flagged_or_change_nothing(fast3):
    """Random silenced neurons and heads (``LN.nK`` / ``LN.hK``, engine/faults.py) on vector_add,
    from a random EXEC step on: each either leaves every token, every read-out margin and the final
    memory exactly as the fault-free interpreter has them, or shows in one of the three checks
    ``qgpu run --check-replay`` makes (a token, a margin, the memory). A unit the engine compacted
    away (its weights give it no output) must change nothing. Both outcomes must occur."""
    from engine.faults import unit_counts

    prog, launch = _launch(VECTOR_ADD)
    clean = Interpreter(prog, launch, CFG3).run()
    want = trace_tokens(clean.trace)
    pos = exec_positions(want)
    run, snaps = _stepped(fast3, prog, launch, want, pos)
    counts = unit_counts(fast3.path)
    rng = random.Random("unit faults")
    seen = {"token": 0, "margin": 0, "memory": 0, "unchanged": 0, "no output": 0}
    faults = []
    for k in range(UNIT_FAULTS):
        layer = rng.randrange(len(counts))
        kind = rng.choice(["neuron", "head"])
        L = fast3.model.layers[layer]
        kept = (L.mlp.neurons.tolist() if L.mlp else []) if kind == "neuron" else \
            (getattr(L.mixer, "heads", []) if L.mixer else [])
        unit = rng.choice(kept) if kept and k % 4 else rng.randrange(counts[layer][kind])
        faults.append(Fault(kind, step=rng.randrange(len(pos)), layer=layer, unit=unit,
                            text=f"L{layer}.{kind[0]}{unit}"))
    try:
        # latest step first: a run that departed is still at least as long as any earlier step's snapshot
        for f in sorted(faults, key=lambda f: -f.step):
            run.restore(snaps[f.step])
            fast3.exe.unsilence()
            had, _ = inject_model(run, f)
            bad = run.force(want[pos[f.step] + 1:])
            if bad is not None:
                outcome = "token"
            elif run.low_margins():
                outcome = "margin"
            elif [w.value for w in run.memory()[:len(clean.memory)]] != [v & 0xFFFFFFFF for v in clean.memory]:
                outcome = "memory"
            else:
                outcome = "unchanged" if had else "no output"
            assert had or outcome == "no output", f"{f.text}: no output, yet the launch changed ({outcome})"
            seen[outcome] += 1
    finally:
        fast3.exe.unsilence()
    assert seen["token"] + seen["margin"] + seen["memory"] >= 2 and seen["unchanged"] + seen["no output"] >= 3, seen


@pytest.mark.model
def test_qgpu_run_inject_unit_on_both_engines(ckpt3, fast3, capsys):
    """Through the command line, teacher-forced (one pass per part, so stock transformers is quick):
    a silenced head that holds part of the memory is flagged where the launch reads it (a[0] + b[0]
    gives 10, not 11), with the same message on the fast engine and on stock transformers; a neuron
    the weights give no output changes nothing."""
    prog, launch = _launch(VECTOR_ADD)
    base = ["run", VECTOR_ADD, "--backend", "model", "--model", ckpt3, "--check-replay", "--teacher-forced"]
    dead = next((i, n) for i, L in enumerate(fast3.model.layers) if L.mlp is not None
                for n in range(L.mlp.neurons.numel() + 1) if n not in set(L.mlp.neurons.tolist()))
    rc, out, err = _cli(capsys, *base, "--inject", f"L{dead[0]}.n{dead[1]}@1", "--json")
    assert rc == 0 and "nothing changes" in err, err
    res = json.loads(out)
    assert res["fault"]["silenced"] is False and res["arrays"]["out"] == [11, 22, 33, 44, -45, -54, -63, 0]
    # the first value head of the memory's first copy (the layout the checkpoint ships): a[0] then reads 0
    st = fast3.layout["state"]
    L, n = st["memory"]["layer"], st["memory"]["head"] * st["heads_per_key"]
    rc, out, err = _cli(capsys, *base, "--inject", f"L{L}.h{n}@0")
    assert rc == 4 and f"head {n} of layer {L} silenced from EXEC step 0 on" in err, err
    assert "model:       S.0.10\n  interpreter: S.0.11" in err, err  # out[0] = a[0] + b[0] with a[0] read as 0
    rc2, _, err2 = _cli(capsys, *base, "--inject", f"L{L}.h{n}@0", "--engine", "hf")
    assert rc2 == 4
    tail = lambda e: e[e.index("qgpu: "):]  # noqa: E731 -- the report after the progress lines
    assert tail(err2) == tail(err), (err, err2)
    rc, _, err = _cli(capsys, *base, "--inject", f"L{len(fast3.model.layers)}.n0@0")
    assert rc != 0 and f"layers 0..{len(fast3.model.layers) - 1}" in err
