"""How many generated tokens the writeback takes now and with two formats not built, counted on
the interpreter's trace under the current protocol (compiler/circuit/protocol.py).

* now: the current trace (lane-parallel register records: ``R.r`` then each changed lane's
  value, the first token naming the lane; a register rewritten with the value it held sends
  nothing).
* per lane: each lane's register write as a record of its own (``R.l.r`` then the value: the
  format before lane-parallel records).
* plus uniform: as now, but one value when every writing lane of the record has the same one.

Everything else (EXEC, P, M, BAR, END) is counted as it is now. Run:
python benchmarks/writeback_variants.py [samples/dot.cu ...]
"""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from compiler.machine.config import DEFAULT as CFG  # noqa: E402
from compiler.circuit.protocol import parse_trace, trace_tokens, value_tokens  # noqa: E402
from compiler.kernel_compiler import compile_file  # noqa: E402
from engine.interpreter import Interpreter  # noqa: E402
from engine.launch import build_launch, parse_assignments, read_header  # noqa: E402


def counts(path: str) -> tuple[int, int, int]:
    h = read_header(path)
    prog = compile_file(path, h.kernel, CFG)
    res = Interpreter(prog, build_launch(prog, h.grid, h.block, parse_assignments(h.args), CFG), CFG).run()
    toks = trace_tokens(res.trace)
    steps, _ = parse_trace(toks)
    now = len(toks)
    per_lane, uniform = now, now
    for st in steps:
        by_reg: dict[int, list[int]] = {}
        for lane, regs in st.regs.items():
            for r, v in regs.items():
                by_reg.setdefault(r, []).append(v)
        for vals in by_reg.values():  # now: 1 + Σ len(value); per lane: Σ (1 + len(value))
            per_lane += len(vals) - 1
            if len(vals) > 1 and len(set(vals)) == 1:
                uniform -= (len(vals) - 1) * len(value_tokens(vals[0]))
    return now, per_lane, uniform


def main() -> None:
    print("| sample | now (lane-parallel) | per lane | plus uniform |")
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
