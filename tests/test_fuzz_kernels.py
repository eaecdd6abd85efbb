"""Differential fuzzing: random integer CUDA kernels, compiled and interpreted,
against an independent Python evaluation of the same expressions (tests/cexpr.py).

Each case is a fixed seed, so a failure reproduces exactly; the failure message
carries the CUDA source, the inputs, the expected and actual ``out`` arrays and,
for straight-line kernels, the smallest sub-expression that still mismatches.

A kernel that does not fit the machine (registers, ROM) is regenerated from the
same seed with smaller expressions; how often that happened is printed at the
end of the module. Any other compile error fails the case.

More seeds: ``QGPU_FUZZ_SEEDS=0-400 python -m pytest tests/test_fuzz_kernels.py``
(``QGPU_FUZZ_CF_SEEDS`` likewise for the control-flow kernels).
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))

import cexpr
from cexpr import OUT_SENTINEL, SLOTS, THREADS, Case, s32

from compiler.errors import CompileError
from compiler.kernel_compiler import compile_cuda
from engine.interpreter import run
from engine.launch import build_launch


def _seeds(env: str, default: range) -> list[int]:
    spec = os.environ.get(env, "").strip()
    if not spec:
        return list(default)
    out: list[int] = []
    for part in spec.split(","):
        lo, _, hi = part.partition("-")
        out += list(range(int(lo), int(hi) + 1)) if hi else [int(lo)]
    return out


EXPR_SEEDS = _seeds("QGPU_FUZZ_SEEDS", range(40))
CF_SEEDS = _seeds("QGPU_FUZZ_CF_SEEDS", range(1000, 1012))

EXPR_DEPTHS = (4, 3, 2)  # the first depth whose kernel fits the machine is used
CF_DEPTHS = (3, 2, 1)

FIT_ERRORS = ("than a lane has", "but the ROM holds")

# how many cases fitted at which depth, and which limits the bigger ones hit
STATS: dict[str, int] = {}


def _count(key: str) -> None:
    STATS[key] = STATS.get(key, 0) + 1


@pytest.fixture(scope="module", autouse=True)
def fit_report(request):
    yield
    if not STATS:
        return
    lines = [f"  {k}: {v}" for k, v in sorted(STATS.items())]
    text = "\nfuzz kernels: fit to the machine\n" + "\n".join(lines) + "\n"
    capman = request.config.pluginmanager.getplugin("capturemanager")
    if capman is not None:
        with capman.global_and_fixture_disabled():
            print(text)
    else:
        print(text)


def _compile_fitting(make, seed: int, depths, kind: str):
    """(case, program) for the deepest depth whose kernel fits the machine."""
    last = None
    for depth in depths:
        case = make(seed, depth)
        try:
            program = compile_cuda(case.source, f"fuzz_{kind}_{seed}.cu")
        except CompileError as e:
            msg = str(e)
            if not any(f in msg for f in FIT_ERRORS):
                _count(f"{kind}: other compile error")
                break
            limit = "ROM" if "ROM" in msg else "predicates" if "predicate" in msg else "registers"
            _count(f"{kind}: depth {depth} did not fit ({limit})")
            last = msg
            continue
        _count(f"{kind}: compiled at depth {depth}")
        return case, program
    else:
        pytest.fail(f"seed {seed}: no depth in {depths} fits the machine: {last}", pytrace=False)
    pytest.fail(f"seed {seed}: the kernel does not compile: {msg}\n\n{_describe(case)}", pytrace=False)


def _launch_args(inputs: dict[str, list[int]]) -> dict[str, str]:
    args = {k: ",".join(str(v) for v in vals) for k, vals in inputs.items()}
    args["out"] = ",".join([str(OUT_SENTINEL)] * (THREADS * SLOTS))
    return args


def _run(program, inputs) -> dict[str, list[int]]:
    launch = build_launch(program, 1, THREADS, _launch_args(inputs))
    arrays = run(program, launch).arrays
    return {k: [s32(w) for w in v] for k, v in arrays.items()}


def _describe(case: Case, actual: list[int] | None = None) -> str:
    lines = ["CUDA source:", case.source,
             "inputs (int32 per thread):"]
    lines += [f"  {k} = {v}" for k, v in case.inputs.items()]
    lines.append(f"expected out = {case.expected_out}")
    if actual is not None:
        lines.append(f"actual   out = {actual}")
        for i, (e, a) in enumerate(zip(case.expected_out, actual)):
            if e != a:
                t, slot = divmod(i, SLOTS)
                lines.append(f"  out[{i}] (thread {t}, slot {slot}): expected {e} ({e & 0xFFFFFFFF:#010x}), "
                             f"got {a} ({a & 0xFFFFFFFF:#010x})")
    return "\n".join(lines)


def _subtrees(n: cexpr.Node):
    yield n
    for k in n.kids():
        yield from _subtrees(k)


def _smallest_mismatch(case: Case, slot: int, budget: int = 40) -> str:
    """The smallest sub-expression of ``case.exprs[slot]`` whose kernel still mismatches."""
    envs = cexpr.thread_envs(case.inputs["a"], case.inputs["b"], case.inputs["c"])
    subs = sorted({id(s): s for s in _subtrees(case.exprs[slot])
                   if not isinstance(s, (cexpr.Const, cexpr.Var))}.values(), key=lambda s: s.size())
    for sub in subs[:budget]:
        src = (cexpr.SIGNATURE + " {\n    int t = threadIdx.x;\n"
               f"    out[t * {SLOTS} + 0] = {cexpr.to_c(sub)};\n}}\n")
        try:
            expected = [s32(cexpr.evaluate(sub, e)) for e in envs]
            program = compile_cuda(src, f"fuzz_min_{case.seed}.cu")
            got = _run(program, case.inputs)["out"][::SLOTS]
        except (cexpr.UB, CompileError):
            continue
        if got != expected:
            return (f"smallest mismatching sub-expression:\n  {cexpr.to_c(sub)}\n"
                    f"  expected per thread {expected}\n  actual   per thread {got}")
    return "(no smaller mismatching sub-expression found)"


def _check(case: Case, program) -> None:
    arrays = _run(program, case.inputs)
    actual = arrays["out"]
    for name in "abc":
        assert arrays[name] == case.inputs[name], f"input array {name} was modified\n{_describe(case)}"
    if actual == case.expected_out:
        return
    msg = [f"seed {case.seed}: interpreter and C semantics disagree", _describe(case, actual)]
    if case.exprs and len(case.exprs) <= SLOTS and "for (" not in case.source:
        bad_slots = sorted({i % SLOTS for i, (e, a) in enumerate(zip(case.expected_out, actual)) if e != a})
        for slot in bad_slots:
            if slot < len(case.exprs):
                msg.append(f"slot {slot}: " + _smallest_mismatch(case, slot))
    pytest.fail("\n".join(msg), pytrace=False)


@pytest.mark.parametrize("seed", EXPR_SEEDS)
def test_random_expressions(seed):
    case, program = _compile_fitting(cexpr.expr_case, seed, EXPR_DEPTHS, "expr")
    _check(case, program)


@pytest.mark.parametrize("seed", CF_SEEDS)
def test_random_control_flow(seed):
    case, program = _compile_fitting(cexpr.cf_case, seed, CF_DEPTHS, "control flow")
    _check(case, program)


# --- the evaluator itself: C semantics spot checks (no project code) -------------------------

def _e(node: cexpr.Node, **env) -> int:
    return cexpr.evaluate(node, {"x": 0, "y": 0, "z": 0, "tid": 0, **env})


def test_evaluator_c_semantics():
    C, V, B, U = cexpr.Const, cexpr.Var, cexpr.Binary, cexpr.Unary
    INT, UINT = cexpr.INT, cexpr.UINT
    x, y = V("x", INT, "x"), V("y", INT, "y")
    tid = V("tid", UINT, "threadIdx.x")
    # truncating division and remainder
    assert _e(B("/", x, C(2, INT, "2")), x=-7) == -3
    assert _e(B("%", x, C(2, INT, "2")), x=-7) == -1
    assert _e(B("%", x, C(-5, INT, "(-5)")), x=7) == 2
    assert _e(B("/", x, C(-5, INT, "(-5)")), x=-7) == 1
    # int op unsigned -> unsigned: -7 / 2u and -1 < 0u
    assert _e(B("/", x, C(2, UINT, "2u")), x=-7) == (2**32 - 7) // 2
    assert _e(B("<", x, C(0, UINT, "0u")), x=-1) == 0
    assert _e(B("<", x, tid), x=-1, tid=3) == 0
    # arithmetic >> on int, logical on unsigned
    assert _e(B(">>", x, C(4, INT, "4")), x=-256) == -16
    assert _e(B(">>", cexpr.Cast(UINT, x), C(28, INT, "28")), x=-1) == 15
    # wrap-around in unsigned; UB in int
    assert _e(B("+", cexpr.Cast(UINT, x), C(1, UINT, "1u")), x=-1) == 0
    with pytest.raises(cexpr.UB):
        _e(B("+", x, C(1, INT, "1")), x=cexpr.INT_MAX)
    with pytest.raises(cexpr.UB):
        _e(B("/", x, y), x=cexpr.INT_MIN, y=-1)
    with pytest.raises(cexpr.UB):
        _e(B("<<", x, C(1, INT, "1")), x=-1)
    with pytest.raises(cexpr.UB):
        _e(U("-", x), x=cexpr.INT_MIN)
    # short circuit: the right side is not evaluated
    assert _e(B("&&", x, B("/", y, x)), x=0, y=5) == 0
    assert _e(B("||", x, B("/", y, C(0, INT, "0"))), x=3, y=5) == 1
    # intrinsics
    call = cexpr.Call
    assert _e(call("__mulhi", (x, y)), x=cexpr.INT_MIN, y=cexpr.INT_MIN) == 1 << 30
    assert _e(call("__mulhi", (x, y)), x=-1, y=5) == -1
    assert _e(call("__umulhi", (cexpr.Cast(UINT, x), cexpr.Cast(UINT, y))), x=-1, y=-1) == 0xFFFFFFFE
    assert _e(call("__popc", (cexpr.Cast(UINT, x),)), x=-1) == 32
    assert _e(call("__clz", (x,)), x=0) == 32
    assert _e(call("__clz", (x,)), x=-1) == 0
    assert _e(call("__brev", (cexpr.Cast(UINT, x),)), x=1) == 0x80000000
    assert _e(call("min", (x, y)), x=-1, y=2) == -1
    assert _e(call("min", (cexpr.Cast(UINT, x), cexpr.Cast(UINT, y))), x=-1, y=2) == 2
    assert _e(call("abs", (x,)), x=-5) == 5
    # ternary converts to the common type
    t = cexpr.Ternary(x, y, C(0, UINT, "0u"))
    assert t.ty == UINT and _e(t, x=1, y=-1) == 0xFFFFFFFF
    # unsuffixed 0x80000000 is unsigned in C++
    assert cexpr.to_c(C(0x80000000, UINT, "0x80000000")) == "0x80000000"


def test_generated_cases_are_ub_free_and_deterministic():
    for seed in list(EXPR_SEEDS)[:10]:
        a, b = cexpr.expr_case(seed), cexpr.expr_case(seed)
        assert a.source == b.source and a.expected_out == b.expected_out
        envs = cexpr.thread_envs(a.inputs["a"], a.inputs["b"], a.inputs["c"])
        for e in a.exprs:
            for n in _subtrees(e):
                assert cexpr.eval_all(n, envs) is not None
    for seed in list(CF_SEEDS)[:4]:
        assert cexpr.cf_case(seed).source == cexpr.cf_case(seed).source
