"""Per-sample size and cost on the machine: ROM blocks, registers, EXEC steps.

    python benchmarks/sample_stats.py            # markdown table on stdout

Steps are interpreter EXEC passes: what the GPU model will need one forward
pass (plus VAL/MEM tokens) for each.
"""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from compiler.kernel_compiler import compile_file  # noqa: E402
from compiler.machine.config import DEFAULT  # noqa: E402
from engine.interpreter import run  # noqa: E402
from engine.launch import build_launch, parse_assignments, read_header  # noqa: E402


def main() -> None:
    rows = []
    for path in sorted((ROOT / "samples").glob("*.cu")):
        h = read_header(path)
        prog = compile_file(path, h.kernel)
        launch = build_launch(prog, h.grid, h.block, parse_assignments(h.args))
        res = run(prog, launch)
        instrs = sum(len(b.instrs) for b in prog.blocks)
        rows.append((path.stem, f"{h.grid}x{h.block}", len(prog.blocks), instrs, prog.regs_used,
                     prog.preds_used, launch.layout.total_words, len(res.trace)))
    print("| sample | grid x block | ROM blocks | instrs | regs | preds | memory words | EXEC steps |")
    print("|---|---|---|---|---|---|---|---|")
    for r in rows:
        print("| " + " | ".join(str(x) for x in r) + " |")
    tot = [sum(r[i] for r in rows) for i in (2, 3, 7)]
    print(f"| **total ({len(rows)})** | | {tot[0]} | {tot[1]} | | | | {tot[2]} |")
    print(f"\nlimits: {DEFAULT.rom_blocks} blocks, {DEFAULT.usable_regs} registers, {DEFAULT.preds} predicates, "
          f"{DEFAULT.mem_words} words")


if __name__ == "__main__":
    main()
