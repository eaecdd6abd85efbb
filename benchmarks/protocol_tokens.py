"""Prompt and trace lengths of every sample under the token protocol (compiler/circuit/protocol.py).

The trace is the interpreter's, encoded: what the model must generate token for token. The
machine is the default checkpoint's (compiler.circuit.build.DEFAULT: 4 instructions per
block). Run: python benchmarks/protocol_tokens.py
"""

import glob
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from compiler.machine.config import DEFAULT as CFG  # noqa: E402
from compiler.circuit.protocol import CircuitLimit, prompt_tokens, trace_tokens  # noqa: E402
from compiler.kernel_compiler import compile_file  # noqa: E402
from engine.interpreter import Interpreter  # noqa: E402
from engine.launch import build_launch, parse_assignments, read_header  # noqa: E402


def main() -> None:
    print("| sample | prompt tokens | generated tokens | of which EXEC | tokens per EXEC |")
    print("|---|---|---|---|---|")
    for f in sorted(glob.glob("samples/*.cu")):
        h = read_header(f)
        prog = compile_file(f, h.kernel, CFG)
        launch = build_launch(prog, h.grid, h.block, parse_assignments(h.args), CFG)
        res = Interpreter(prog, launch, CFG).run()
        try:
            prompt = str(len(prompt_tokens(prog, launch, CFG)))
        except CircuitLimit as e:
            prompt = f"refused: {e}"
        gen = trace_tokens(res.trace)
        print(f"| {Path(f).stem} | {prompt} | {len(gen)} | {len(res.trace)} | {len(gen) / len(res.trace):.1f} |")


if __name__ == "__main__":
    main()
