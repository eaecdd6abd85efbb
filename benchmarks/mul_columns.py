"""The largest multiplier column of every kernel's multiplies, from the interpreter's run.

The circuit's multiplier (compiler/circuit/alu_mul.py) sums digit products per column; bfloat16
is exact on a multiply whose signed-digit columns all stay within ±191. This script runs each
kernel in the reference interpreter, records the operands of every ``mul``/``mulhi`` a thread
executes, and prints per kernel: the number of multiplies, the largest column with unsigned
nibbles (the circuit before signed digits), the largest |column| with signed digits, and how
many multiplies exceed ±191. Plain Python arithmetic on the operands, independent of the circuit.

Run: python benchmarks/mul_columns.py [FILE.cu ...]   (default: samples/ and tests/suite*/)
"""

from __future__ import annotations

import glob
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from compiler.errors import QgpuError  # noqa: E402
from compiler.kernel_compiler import compile_file  # noqa: E402
from compiler.machine import semantics  # noqa: E402
from compiler.machine.isa import Op  # noqa: E402
from engine.interpreter import Interpreter  # noqa: E402
from engine.launch import build_launch, parse_assignments, read_header  # noqa: E402
from compiler.machine.config import DEFAULT  # noqa: E402

BF16_BOUND = 191
MUL_OPS = (Op.MUL, Op.MULHI_S, Op.MULHI_U)


def nibbles(v: int) -> list[int]:
    return [(v >> (4 * i)) & 0xF for i in range(8)]


def signed_digits(v: int) -> tuple[list[int], int]:
    """e_i = v_i − 16·[v_i ≥ 8] + [v_{i−1} ≥ 8], and the top nibble's sign bit."""
    n = nibbles(v)
    s = [int(k >= 8) for k in n]
    return [n[i] - 16 * s[i] + (s[i - 1] if i else 0) for i in range(8)], s[7]


def columns(x: list[int], y: list[int]) -> list[int]:
    return [sum(x[i] * y[n - i] for i in range(8) if 0 <= n - i < 8) for n in range(16)]


def largest(op: Op, a: int, b: int) -> tuple[int, int]:
    """(largest unsigned column, largest |signed-digit column|) over the columns the op needs."""
    need = 8 if op is Op.MUL else 16
    unsigned = max(columns(nibbles(a), nibbles(b))[:need])
    (e, sa), (d, sb) = signed_digits(a), signed_digits(b)
    cols = columns(e, d)
    if op is Op.MULHI_U:
        for j in range(8):
            cols[8 + j] += sa * d[j] + sb * e[j]
    return unsigned, max(abs(c) for c in cols[:need])


def main() -> None:
    files = sys.argv[1:] or sorted(glob.glob("samples/*.cu")) + sorted(glob.glob("tests/suite*/*.cu"))
    seen: list[tuple[Op, int, int]] = []
    for op in MUL_OPS:
        f = semantics.ALU[op]
        semantics.ALU[op] = (lambda f, op: lambda a, b: (seen.append((op, a, b)), f(a, b))[1])(f, op)
    print(f"| kernel | multiplies | largest column, unsigned nibbles | largest column, signed digits | beyond ±{BF16_BOUND} |")
    print("|---|---|---|---|---|")
    for path in files:
        try:
            h = read_header(path)
            prog = compile_file(path, h.kernel, DEFAULT)
            launch = build_launch(prog, h.grid, h.block, parse_assignments(h.args), DEFAULT)
            seen.clear()
            Interpreter(prog, launch, DEFAULT).run()
        except QgpuError as e:
            print(f"| {path} | not run: {str(e).splitlines()[0]} | | | |")
            continue
        if not seen:
            continue
        cols = [largest(*m) for m in seen]
        print(f"| {path} | {len(seen)} | {max(u for u, _ in cols)} | {max(s for _, s in cols)} | "
              f"{sum(s > BF16_BOUND for _, s in cols)} |")


if __name__ == "__main__":
    main()
