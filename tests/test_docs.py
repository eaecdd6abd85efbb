"""Docs that are generated or mirrored must match their source of truth."""

from __future__ import annotations

import re

from conftest import ROOT

from compiler.machine.doc import BEGIN, END, render


def test_machine_md_tables_are_current():
    doc = (ROOT / "docs" / "machine.md").read_text()
    a, b = doc.index(BEGIN), doc.index(END) + len(END)
    assert doc[a:b] == render(), "run: python -m compiler.machine.doc --write"


def test_ci_runs_the_readme_test_command():
    readme = (ROOT / "README.md").read_text()
    blocks = re.findall(r"```bash\n(.*?)\n```", readme, re.S)
    assert len(blocks) >= 2, "README must open with two bash commands"
    test_cmd = blocks[1].strip()
    assert "pytest" in test_cmd
    ci = (ROOT / ".ci" / "run").read_text().splitlines()
    assert test_cmd in ci, ".ci/run must call README's test command verbatim"
    assert "qgpu" in blocks[0]


def test_circuit_tables_are_current():
    from compiler.circuit.doc import BEGIN as CB, END as CE, render as crender

    doc = (ROOT / "docs" / "circuit.md").read_text()
    a, b = doc.index(CB), doc.index(CE) + len(CE)
    assert doc[a:b] == crender(), "run: python -m compiler.circuit.doc --write"
