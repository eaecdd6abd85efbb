"""One machine everywhere (issue 27, part 1): every command picks its machine the same way
(``--model DIR``'s, else ``--machine N:B``, else the default), a compiled program carries the machine
it was compiled for, and running it on another machine is refused with a message naming both.

Expected values are independent of the code under test: sizes from the command line given, block
limits counted in the printed program, results from the plain-Python references in
tests/kernel_refs.py.
"""

from __future__ import annotations

import json
import re

import pytest

from conftest import ROOT
from kernel_refs import REFS, parse_header

from app.cli import main
from compiler.errors import LaunchError
from compiler.kernel_compiler import compile_file
from compiler.machine.config import DEFAULT, SEED, machine_to_json, parse_machine
from compiler.program_io import program_from_json, program_to_json
from engine.interpreter import Interpreter
from engine.launch import build_launch, parse_assignments, read_header

DOT = ROOT / "samples" / "dot.cu"


def _cli(capsys, *argv) -> tuple[int, str, str]:
    capsys.readouterr()
    try:
        rc = main([str(a) for a in argv])
    except SystemExit as e:
        rc = e.code
    out, err = capsys.readouterr()
    return rc, out, err


def _json_program(capsys, *extra) -> dict:
    rc, out, err = _cli(capsys, "compile", DOT, "--json", *extra)
    assert rc == 0, err
    return json.loads(out)


def test_parse_machine_names():
    assert (DEFAULT.block.max_instrs, DEFAULT.rom_blocks) == (4, 60)
    assert DEFAULT.name == "4:60" and SEED.name == "8:32"
    m = parse_machine("3:32")
    assert (m.block.max_instrs, m.rom_blocks, m.name) == (3, 32, "3:32")
    assert parse_machine("5").rom_blocks == DEFAULT.rom_blocks
    for bad in ("x", "3:y", "0:32", ""):
        with pytest.raises(ValueError):
            parse_machine(bad)


@pytest.mark.parametrize("machine,instrs,blocks", [(None, 4, 60), ("8:32", 8, 32), ("3:32", 3, 32)])
def test_compile_uses_the_machine_asked_for_and_the_program_carries_it(capsys, machine, instrs, blocks):
    prog = _json_program(capsys, *(["--machine", machine] if machine else []))
    assert prog["machine"]["block"]["max_instrs"] == instrs and prog["machine"]["rom_blocks"] == blocks
    assert max(len(b["instrs"]) for b in prog["blocks"]) <= instrs
    rc, out, _ = _cli(capsys, "compile", DOT, "--no-ptx", *(["--machine", machine] if machine else []))
    assert rc == 0
    assert f"machine {instrs}:{blocks} ({instrs} instructions per block, a {blocks}-block ROM)" in out
    assert re.search(rf"; \d+ of {blocks} ROM blocks", out)


def test_longer_blocks_give_fewer_blocks(capsys):
    """A check that --machine reaches the block splitter: dot on 8-instruction blocks needs fewer
    blocks than on 3-instruction ones."""
    assert len(_json_program(capsys, "--machine", "8:32")["blocks"]) < len(_json_program(capsys, "--machine", "3:32")["blocks"])


def test_program_json_keeps_its_machine():
    for cfg in (DEFAULT, SEED):
        p = compile_file(DOT, cfg=cfg)
        assert p.machine == cfg
        back = program_from_json(json.loads(json.dumps(program_to_json(p))))
        assert back.machine == cfg and len(back.blocks) == len(p.blocks)


def _launch(cfg):
    h = read_header(DOT)
    p = compile_file(DOT, cfg=cfg)
    return p, build_launch(p, h.grid, h.block, parse_assignments(h.args))


def test_a_program_runs_on_its_own_machine_by_default_and_is_refused_on_another():
    prog, launch = _launch(SEED)
    grid, block, _, args = parse_header(str(DOT))
    want = REFS["dot"](args, grid, block)
    assert Interpreter(prog, launch).run().arrays["out"] == [x & 0xFFFFFFFF for x in want["out"]]
    with pytest.raises(LaunchError, match=r"compiled for machine 8:32 .* runs on machine 4:60"):
        Interpreter(prog, launch, DEFAULT)
    with pytest.raises(LaunchError, match=r"compiled for machine 8:32"):
        build_launch(prog, 1, 4, parse_assignments(["a=1,2,3", "b=4,5,6", "out=zeros:1", "n=3"]), DEFAULT)


@pytest.mark.parametrize("machine", ["8:32", "3:32"])
def test_run_on_another_machine_gives_the_reference(capsys, machine):
    rc, out, err = _cli(capsys, "run", DOT, "--json", "--machine", machine)
    assert rc == 0, err
    grid, block, _, args = parse_header(str(DOT))
    assert json.loads(out)["arrays"]["out"] == REFS["dot"](args, grid, block)["out"]


def _fake_checkpoint(tmp_path, cfg):
    """A directory with only the layout file: enough for the commands that need just its machine."""
    (tmp_path / "qgpu_layout.json").write_text(json.dumps({"machine": machine_to_json(cfg)}))
    return tmp_path


def test_model_dir_gives_its_machine_and_a_conflicting_machine_is_refused(capsys, tmp_path):
    ck = _fake_checkpoint(tmp_path, parse_machine("3:32"))
    assert _json_program(capsys, "--model", ck)["machine"]["block"]["max_instrs"] == 3
    rc, out, err = _cli(capsys, "compile", DOT, "--model", ck, "--machine", "4:60")
    assert rc == 2 and out == ""
    assert "--machine 4:60" in err and "machine 3:32" in err
    rc, _, err = _cli(capsys, "run", DOT, "--machine", "four")
    assert rc == 2 and "--machine" in err and "N:B" in err
    rc, _, err = _cli(capsys, "compile", DOT, "--model", tmp_path / "nowhere")
    assert rc == 2 and "not a qgpu checkpoint" in err


@pytest.mark.model
def test_the_model_refuses_a_program_of_another_machine(fast3):
    assert fast3.machine.name == "3:32"
    prog, launch = _launch(DEFAULT)
    with pytest.raises(LaunchError, match=r"compiled for machine 4:60 .* runs on machine 3:32"):
        fast3.start(prog, launch)
