"""Chat evaluation: question sets with answers computed in plain Python, asked of a merged checkpoint.

    python benchmarks/eval_chat.py MERGED [--samples N] [--mode normal|advanced|both]
                                          [--forced] [--transcripts FILE]

Each question is asked in its own conversation (``app.chat.session.ChatSession``). A question
passes when the result that went back to the model (read from the model's state) equals the
plain-Python answer and every launch replayed exactly against the interpreter.

Without ``--forced`` the model writes its own expression or kernel: that measures the model (a
quality number; report it only for the model it was measured on). With ``--forced`` each
question's reference text (what a capable model would write) is forced as the assistant's text,
clearly labelled in the transcripts: that measures the pipeline (parse, compile, launch inside the
model, read-out, replay), not the model. Transcripts (one JSON object per question) go to
``--transcripts`` (default: eval_chat.jsonl in the current directory).
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))


def _w(x: int) -> int:
    """32-bit signed wrap-around, as the GPU computes."""
    return (x + (1 << 31)) % (1 << 32) - (1 << 31)


def _fmt(v) -> str:
    if isinstance(v, int):
        return str(v)
    if v and isinstance(v[0], list):
        return "[" + ", ".join(_fmt(r) for r in v) + "]"
    return "[" + ", ".join(map(str, v)) + "]"


def _dot(a, b):
    return _w(sum(x * y for x, y in zip(a, b)))


def _matmul(A, B):
    return [[_w(sum(A[i][k] * B[k][j] for k in range(len(B)))) for j in range(len(B[0]))] for i in range(len(A))]


# (question, reference expression, plain-Python answer)
NORMAL = [
    ("What is the sum of 12, 7, 30 and 5?", "sum(12, 7, 30, 5)", sum([12, 7, 30, 5])),
    ("Add up 100, -45, 3 and 17.", "sum(100, -45, 3, 17)", sum([100, -45, 3, 17])),
    ("What is [1, 2, 3] dot [4, 5, 6]?", "[1, 2, 3] @ [4, 5, 6]", _dot([1, 2, 3], [4, 5, 6])),
    ("Compute the dot product of (2, -1, 0, 7) and (3, 3, 9, -2).", "[2, -1, 0, 7] @ [3, 3, 9, -2]",
     _dot([2, -1, 0, 7], [3, 3, 9, -2])),
    ("What is 1*4 + 2*5 + 3*6 + 4*7?", "[1, 2, 3, 4] @ [4, 5, 6, 7]", 1 * 4 + 2 * 5 + 3 * 6 + 4 * 7),
    ("Which is the smallest of 8, -3, 15, 0, -11?", "min(8, -3, 15, 0, -11)", min([8, -3, 15, 0, -11])),
    ("What is the largest number in [42, 17, 99, 3, 56]?", "max([42, 17, 99, 3, 56])", max([42, 17, 99, 3, 56])),
    ("Find the maximum of -5, -9 and -2.", "max(-5, -9, -2)", max([-5, -9, -2])),
    ("Sort 5, 3, 9, 1, 7 in ascending order.", "sort([5, 3, 9, 1, 7])", sorted([5, 3, 9, 1, 7])),
    ("Sort these numbers: 10, -4, 0, 22, -4, 8.", "sort([10, -4, 0, 22, -4, 8])", sorted([10, -4, 0, 22, -4, 8])),
    ("How many times does 3 appear in [3, 1, 3, 2, 3, 5]?", "count([3, 1, 3, 2, 3, 5], 3)", [3, 1, 3, 2, 3, 5].count(3)),
    ("How many zeros are in 0, 4, 0, 0, 9?", "count([0, 4, 0, 0, 9], 0)", [0, 4, 0, 0, 9].count(0)),
    ("Add the vectors [1, 2, 3] and [10, 20, 30].", "[1, 2, 3] + [10, 20, 30]",
     [a + b for a, b in zip([1, 2, 3], [10, 20, 30])]),
    ("Subtract [5, 5, 5, 5] from [9, 3, 7, 1].", "[9, 3, 7, 1] - [5, 5, 5, 5]",
     [a - b for a, b in zip([9, 3, 7, 1], [5, 5, 5, 5])]),
    ("Multiply [2, 4, 6] by [3, -1, 2] element by element.", "[2, 4, 6] * [3, -1, 2]",
     [a * b for a, b in zip([2, 4, 6], [3, -1, 2])]),
    ("Double every element of [7, -8, 9].", "[7, -8, 9] * 2", [2 * x for x in [7, -8, 9]]),
    ("What is the product of the matrices [[1, 2], [3, 4]] and [[5, 6], [7, 8]]?", "[[1, 2], [3, 4]] @ [[5, 6], [7, 8]]",
     _matmul([[1, 2], [3, 4]], [[5, 6], [7, 8]])),
    ("Multiply [[1, 0, 2], [0, 1, 3]] by [[1, 1], [2, 0], [0, 4]].", "[[1, 0, 2], [0, 1, 3]] @ [[1, 1], [2, 0], [0, 4]]",
     _matmul([[1, 0, 2], [0, 1, 3]], [[1, 1], [2, 0], [0, 4]])),
    ("Apply the matrix [[2, 1], [1, 3]] to the vector [4, -1].", "[[2, 1], [1, 3]] @ [4, -1]",
     [r[0] for r in _matmul([[2, 1], [1, 3]], [[4], [-1]])]),
    ("What is the sum of the element-wise products of [1, 2, 3] and [4, 5, 6], minus 2?",
     "sum([1, 2, 3] * [4, 5, 6]) - 2", sum(a * b for a, b in zip([1, 2, 3], [4, 5, 6])) - 2),
    ("What is the largest element after sorting [3, 11, 7]?", "max(sort([3, 11, 7]))", max([3, 11, 7])),
    ("What is 2147483647 + 1 on a 32-bit GPU?", "sum(2147483647, 1)", _w(2147483647 + 1)),
    ("Sum the numbers from 1 to 10.", "sum(1, 2, 3, 4, 5, 6, 7, 8, 9, 10)", sum(range(1, 11))),
    ("What is the dot product of [10, 20] with itself?", "[10, 20] @ [10, 20]", _dot([10, 20], [10, 20])),
]

_K = "```cuda\n// qgpu: --grid 1 --block 4 {args}\n{body}\n```"
ADVANCED = [
    ("Square each of 3, 1, 4, 1.", _K.format(args="a=3,1,4,1 out=zeros:4", body=(
        "__global__ void square(const int* a, int* out) {\n    int t = threadIdx.x;\n    out[t] = a[t] * a[t];\n}")),
     {"out": [9, 1, 16, 1]}),
    ("Add 1, 2, 3, 4, 5, 6, 7, 8 together.", _K.format(args="a=1,2,3,4,5,6,7,8 out=zeros:1 n=8", body=(
        "__global__ void total(const int* a, int* out, int n) {\n    int s = 0;\n"
        "    for (int i = threadIdx.x; i < n; i += blockDim.x) s += a[i];\n    atomicAdd(out, s);\n}")),
     {"out": [36]}),
    ("Reverse the array 1, 2, 3, 4.", _K.format(args="a=1,2,3,4 out=zeros:4", body=(
        "__global__ void rev(const int* a, int* out) {\n    int t = threadIdx.x;\n    out[3 - t] = a[t];\n}")),
     {"out": [4, 3, 2, 1]}),
    ("What is the maximum of 5, -2, 17, 8?", _K.format(args="a=5,-2,17,8 out=-2147483648", body=(
        "__global__ void amax(const int* a, int* out) {\n    atomicMax(out, a[threadIdx.x]);\n}")),
     {"out": [17]}),
    ("Compute the prefix sums of 1, 2, 3, 4.", _K.format(args="a=1,2,3,4 out=zeros:4", body=(
        "__global__ void scan(const int* a, int* out) {\n    int t = threadIdx.x;\n    int s = 0;\n"
        "    for (int i = 0; i <= t; ++i) s += a[i];\n    out[t] = s;\n}")),
     {"out": [1, 3, 6, 10]}),
]


def evaluate_turn(turn, mode: str, want) -> bool:
    if turn.result is None or not turn.exact:
        return False
    if mode == "normal":
        return turn.result == _fmt(want)
    got = {r: v for rep in turn.launches[-1:] for r, v in rep.result.items()}
    return all(got.get(k) == v for k, v in want.items())


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("model", metavar="MERGED")
    ap.add_argument("--samples", type=int, help="ask only the first N questions of each set")
    ap.add_argument("--mode", choices=["normal", "advanced", "both"], default="both")
    ap.add_argument("--forced", action="store_true",
                    help="force each question's reference text as the assistant's (measures the pipeline)")
    ap.add_argument("--transcripts", type=Path, default=Path("eval_chat.jsonl"))
    ap.add_argument("--engine", choices=["fast", "hf"], default="fast")
    ap.add_argument("--dtype", choices=["float32", "bfloat16"], default="float32")
    ns = ap.parse_args(argv)

    import torch

    from app.chat.session import ChatSession
    from engine.model import GpuModel

    gpu = GpuModel(ns.model, ns.dtype, engine=ns.engine)
    sets = {"normal": NORMAL, "advanced": ADVANCED}
    modes = ["normal", "advanced"] if ns.mode == "both" else [ns.mode]
    print(f"{ns.model}, {ns.engine} engine, {ns.dtype}, torch {torch.__version__}, "
          f"assistant text: {'FORCED (reference texts)' if ns.forced else 'written by the model'}")
    with ns.transcripts.open("w", encoding="utf-8") as out:
        for mode in modes:
            qs = sets[mode][:ns.samples] if ns.samples else sets[mode]
            passed, t0 = 0, time.time()
            for q, ref, want in qs:
                chat = ChatSession(gpu, mode)
                turn = chat.ask(q, ([ref] if mode == "normal" else [ref, ref]) if ns.forced else None)
                ok = evaluate_turn(turn, mode, want)
                passed += ok
                out.write(json.dumps({**turn.summary(), "expected": want, "passed": ok, "transcript": chat.text}) + "\n")
                print(f"  {'PASS' if ok else 'fail'}  {mode:8s} {q}  -> {turn.result if turn.error is None else 'error: ' + turn.error}")
            print(f"{mode}: {passed}/{len(qs)} passed ({time.time() - t0:.0f} s)")
    print(f"transcripts: {ns.transcripts}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
