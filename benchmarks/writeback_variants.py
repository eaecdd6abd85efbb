"""How many generated tokens two writeback formats not built yet would take, counted on the
interpreter's trace under the current protocol (compiler/circuit/protocol.py).

* now: the current trace (``R.l.r`` then the value, per lane and register; a register rewritten
  with the value it held sends nothing — built since the session of 2026-12-03, evening).
* lane-parallel: one address per register and step, then each writing lane's value in lane order
  (the lanes are known from the step's write mask).
* plus uniform: as lane-parallel, but one value when every writing lane has the same one.

Everything else (EXEC, P, M, BAR, END) is counted as it is now. Run:
python benchmarks/writeback_variants.py [samples/dot.cu ...]
"""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from compiler.circuit.build import MODEL_DEFAULT as CFG  # noqa: E402
from compiler.circuit.protocol import trace_tokens  # noqa: E402
from compiler.kernel_compiler import compile_file  # noqa: E402
from engine.interpreter import Interpreter  # noqa: E402
from engine.launch import build_launch, parse_assignments, read_header  # noqa: E402


def _is_value(tok: str) -> bool:
    return tok.startswith("S.") or tok[:2] in ("B0", "B1", "B2", "B3")


def counts(path: str) -> tuple[int, int, int]:
    h = read_header(path)
    prog = compile_file(path, h.kernel, CFG)
    res = Interpreter(prog, build_launch(prog, h.grid, h.block, parse_assignments(h.args), CFG), CFG).run()
    toks = trace_tokens(res.trace)
    now, parallel, uniform = len(toks), 0, 0
    steps: list[list[str]] = []
    for t in toks:
        if t.startswith(("EXEC", "END", "BAR")) or not steps:
            steps.append([])
        steps[-1].append(t)
    for step in steps:
        regs: dict[str, list[tuple[str, ...]]] = {}
        other, i = 0, 0
        while i < len(step):
            if step[i].startswith("R."):
                j = i + 1
                while j < len(step) and _is_value(step[j]):
                    j += 1
                regs.setdefault(step[i].split(".")[2], []).append(tuple(step[i + 1:j]))
                i = j
            else:
                other, i = other + 1, i + 1
        parallel += other + sum(1 + sum(map(len, v)) for v in regs.values())
        uniform += other + sum(1 + (len(v[0]) if len(set(v)) == 1 else sum(map(len, v))) for v in regs.values())
    return now, parallel, uniform


def main() -> None:
    print("| sample | now | lane-parallel | plus uniform |")
    print("|---|---|---|---|")
    total = [0, 0, 0]
    paths = sys.argv[1:] or ["samples/dot.cu"]
    for path in paths:
        row = counts(path)
        total = [t + c for t, c in zip(total, row)]
        print(f"| {Path(path).stem} | " + " | ".join(map(str, row)) + " |")
    if len(paths) > 1:
        print(f"| **total ({len(paths)})** | " + " | ".join(map(str, total)) + " |")


if __name__ == "__main__":
    main()
