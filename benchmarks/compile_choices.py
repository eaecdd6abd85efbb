"""How well the compiler's choice between ways to compile a kernel (plain or rematerialised,
compiler/kernel_compiler.py) does against the interpreter's real trace, for several
``trace_cost.LOOP_WEIGHT`` values.

For each kernel of the given files (default: samples/*.cu) with a ``// qgpu:`` launch header, every
candidate program is compiled and run on the interpreter; the table gives the total trace tokens
of the programs the estimate picks for each weight, the total of the best candidate of each
kernel (what a perfect estimate would pick) and of the plain candidates alone. Run:

    python benchmarks/compile_choices.py ['samples/*.cu' 'tests/suite3/*.cu' ...]
"""

import glob
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import compiler.kernel_compiler as kc  # noqa: E402
import compiler.trace_cost as tc  # noqa: E402
from compiler.machine.config import DEFAULT as CFG  # noqa: E402
from compiler.circuit.protocol import trace_tokens  # noqa: E402
from engine.interpreter import Interpreter  # noqa: E402
from engine.launch import build_launch, parse_assignments, read_header  # noqa: E402

WEIGHTS = (1, 2, 3, 4, 6)


def candidates(path: str) -> list[tuple[object, int]]:
    """(program, real trace tokens) of every candidate the compiler weighs for ``path``, plain first."""
    h = read_header(path)
    seen: list = []
    estimate = kc.estimated_tokens

    def record(program) -> int:
        if not any(program is p for p in seen):
            seen.append(program)
        return estimate(program)

    kc.estimated_tokens = record
    try:
        chosen = kc.compile_file(path, h.kernel, CFG)
    finally:
        kc.estimated_tokens = estimate
    programs = seen or [chosen]  # one candidate: min() never called the key
    out = []
    for p in programs:
        res = Interpreter(p, build_launch(p, h.grid, h.block, parse_assignments(h.args), CFG), CFG).run()
        out.append((p, len(trace_tokens(res.trace))))
    return out


def main() -> None:
    patterns = sys.argv[1:] or ["samples/*.cu"]
    print("| kernels | " + " | ".join(f"LOOP_WEIGHT {w}" for w in WEIGHTS) + " | best candidate | plain only |")
    print("|---" * (len(WEIGHTS) + 3) + "|")
    for pattern in patterns:
        rows, skipped = [], 0
        for path in sorted(glob.glob(pattern)):
            try:
                rows.append(candidates(path))
            except Exception as e:  # a kernel outside the default machine: counted, not hidden
                skipped += 1
                print(f"  skipped {path}: {type(e).__name__}: {str(e).splitlines()[0]}", file=sys.stderr)
        saved = tc.LOOP_WEIGHT
        picked = []
        for w in WEIGHTS:
            tc.LOOP_WEIGHT = w
            picked.append(sum(min(r, key=lambda c: tc.estimated_tokens(c[0]))[1] for r in rows))
        tc.LOOP_WEIGHT = saved
        best = sum(min(t for _, t in r) for r in rows)
        plain = sum(r[0][1] for r in rows)
        label = f"{pattern} ({len(rows)}" + (f", {skipped} skipped)" if skipped else ")")
        print(f"| {label} | " + " | ".join(map(str, picked)) + f" | {best} | {plain} |")
    print(f"(the compiler uses LOOP_WEIGHT = {tc.LOOP_WEIGHT})")


if __name__ == "__main__":
    main()
