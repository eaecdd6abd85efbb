"""Bad input must give one clear error message, never a Python traceback.

The corpus is ``tests/bad/*.cu``; every file says in its comments what is wrong
with it and, for run-time faults, which address / thread / lane / warp / CTA
faults first. The expected facts below are worked out from those sources (array
sizes, launch shapes, the lines marked ``// BAD``), not copied from the tool.

Exit status: 2 for bad input (compile and launch errors), 1 for a kernel that
faulted at run time.

Most tests drive the CLI in-process through ``app.cli.main``; one runs
``python -m app.cli`` in a subprocess. The corpus is checked under both CUDA
toolchains (nvcc skipped when absent, clang through conftest.require_clang).
Compiles are cached by the project (``~/.cache/qgpu``): about 20 s cold, a few
seconds after that.
"""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
import traceback
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from compiler.machine.config import DEFAULT

from app.cli import main
from conftest import require_clang

ROOT = Path(__file__).resolve().parents[1]
BAD = ROOT / "tests" / "bad"
ARGS_TARGET = BAD / "args_target.cu"  # a valid kernel: (const int* a, int* out, int n, unsigned k)


def _have_cuda_compiler() -> bool:
    try:
        from compiler.cuda_to_ptx import find_toolchain

        find_toolchain()
        return True
    except Exception:
        return False


needs_compiler = pytest.mark.skipif(not _have_cuda_compiler(), reason="no CUDA compiler (nvcc or clang)")


def use_toolchain(monkeypatch, toolchain: str) -> None:
    """Pin the CUDA compiler: the corpus expectations are checked under both."""
    if toolchain == "nvcc":
        if not shutil.which("nvcc"):
            pytest.skip("nvcc is not on PATH")
    else:
        require_clang()
    monkeypatch.setenv("QGPU_CUDA_COMPILER", toolchain)


TOOLCHAINS = ["nvcc", pytest.param("clang", marks=pytest.mark.clang)]


# --- running the CLI --------------------------------------------------------------------------


@dataclass
class Res:
    rc: object
    out: str
    err: str

    def __str__(self) -> str:
        return f"\n--- exit status: {self.rc!r}\n--- stdout:\n{self.out}\n--- stderr:\n{self.err}"


def cli(capsys, *argv) -> Res:
    """Run ``qgpu ARGV`` in-process; an escaping exception is recorded as a traceback."""
    argv = [str(a) for a in argv]
    capsys.readouterr()
    try:
        rc = main(argv)
    except SystemExit as e:  # argparse errors exit(2)
        if isinstance(e.code, str):
            sys.stderr.write(e.code + "\n")
            rc = 1
        else:
            rc = 0 if e.code is None else e.code
    except Exception:  # exactly what these tests forbid: show it in the failure
        rc = "uncaught exception"
        sys.stderr.write(traceback.format_exc())
    cap = capsys.readouterr()
    return Res(rc, cap.out, cap.err)


def assert_error(res: Res, rc: int) -> None:
    """The common contract: no traceback, the right exit status, an 'error' message on stderr."""
    assert "Traceback" not in res.err and "Traceback" not in res.out, f"traceback printed{res}"
    assert res.rc == rc, f"expected exit status {rc}{res}"
    assert res.err.strip(), f"no message on stderr{res}"
    assert "error" in res.err.lower(), f"the message does not say 'error'{res}"
    assert res.out == "", f"an error should not print partial results on stdout{res}"


def assert_facts(res: Res, patterns: list[str]) -> None:
    missing = [p for p in patterns if not re.search(p, res.err, re.I)]
    assert not missing, f"the message lacks {missing}{res}"


def bad_lines(name: str, slack: int = 0) -> set[int]:
    """Lines of tests/bad/NAME.cu marked '// BAD' (+- slack)."""
    lines = set()
    for n, text in enumerate((BAD / f"{name}.cu").read_text().splitlines(), 1):
        if "// BAD" in text:
            lines |= set(range(n - slack, n + slack + 1))
    assert lines, f"{name}.cu has no '// BAD' marker"
    return lines


def at_cuda_line(name: str, lines: set[int]) -> str:
    """The message points at one of ``lines`` of NAME.cu: 'NAME.cu:L:' or 'CUDA line L'."""
    alts = "|".join(str(n) for n in sorted(lines))
    return rf"{re.escape(name)}\.cu:({alts}):|CUDA line ({alts})\b"


def some_location(name: str) -> str:
    """The message names the file and a line (CUDA or PTX)."""
    return rf"{re.escape(name)}\.cu(\.ptx)?:\d+|{re.escape(name)}\.cu.*\bline \d+"


UNSUPPORTED = r"not supported|unsupported|only .*(is|are) supported"


# --- the corpus -------------------------------------------------------------------------------


@dataclass
class Case:
    name: str
    command: str  # "compile" or "run"
    rc: int
    facts: list[str]
    args: list[str] = field(default_factory=list)
    clang: list[str] | None = None
    """Facts under clang where they differ: its header has no printf and no __noinline__."""


CASES = [
    # invalid CUDA: the compiler's own diagnostic, at file:line of the CUDA source
    Case("syntax_error", "compile", 2, [at_cuda_line("syntax_error", {5}), r"expected"]),
    Case("undefined_identifier", "compile", 2,
         [at_cuda_line("undefined_identifier", {4}), r"scale_factor"]),
    Case("float_param", "compile", 2,
         [at_cuda_line("float_param", {2}), r"\bfloat\b", r"parameter '?a'?(\W|$)"]),
    # unsupported features: file, a line, and the PTX instruction (or construct) refused
    Case("float_math", "compile", 2,
         [some_location("float_math"), r"\b[a-z]+(\.[a-z0-9]+)*\.f32\b", r"float"]),
    Case("div64", "compile", 2, [some_location("div64"), r"\bdiv\.[su]64\b", UNSUPPORTED]),
    Case("min64", "compile", 2, [some_location("min64"), r"\bmin\.s64\b", UNSUPPORTED]),
    Case("char_store", "compile", 2,
         [some_location("char_store"), r"\bst(\.global)?\.[sub]8\b", UNSUPPORTED]),
    Case("short_store", "compile", 2,
         [some_location("short_store"), r"\bst(\.global)?\.[sub]16\b", UNSUPPORTED]),
    # 40 words of stack per thread x 4 threads + 8 words of arrays = 168 > 126
    Case("local_too_big", "run", 2, [r"local_too_big\.cu", r"\blocal\b", r"\b168\b", r"\b126\b", r"over by 42"]),
    Case("device_global", "compile", 2,
         [some_location("device_global"), r"\bcounter\b", r"__device__|global variable", UNSUPPORTED]),
    Case("constant_mem", "compile", 2,
         [some_location("constant_mem"), r"\btable\b", r"constant", UNSUPPORTED]),
    Case("printf_call", "compile", 2, [some_location("printf_call"), r"printf", UNSUPPORTED],
         clang=[at_cuda_line("printf_call", {4}), r"printf"]),
    Case("noinline_call", "compile", 2,
         [some_location("noinline_call"), r"\bcall", r"mix", UNSUPPORTED],
         clang=[some_location("noinline_call"), r"__noinline__|\bcall"]),
    Case("recursion", "compile", 2,
         [some_location("recursion"), r"\bcall|recurs", r"fib", UNSUPPORTED]),
    # a file with two kernels: which ones, and how to choose
    Case("two_kernels", "compile", 2,
         [r"two_kernels\.cu", r"first_kernel", r"second_kernel", r"--kernel"]),
    Case("two_kernels", "run", 2,
         [r"two_kernels\.cu", r"first_kernel", r"second_kernel", r"--kernel"],
         ["out=zeros:4", "--grid", "1", "--block", "4"]),
    Case("bad_header", "run", 2, [r"bad_header\.cu:1:", r"--grid", r"\btwo\b"]),
    # run-time faults (launch from each file's '// qgpu:' header)
    # a=zeros:12, grid 2 x block 8: g = 12 is CTA 1, threadIdx.x 4 -> warp 3, lane 0; 12*4 = 0x30
    Case("oob_past_end", "run", 1,
         [at_cuda_line("oob_past_end", {9}), r"bounds", r"\bglobal\b", r"write|store",
          r"0x0*30\b|address 48\b", r"\blane 0\b", r"\bwarp 3\b", r"\bCTA 1\b"]),
    # a is at byte 0; thread 0 reads a[-1] at -4 = 0xfffffffc
    Case("oob_negative", "run", 1,
         [at_cuda_line("oob_negative", {6}), r"bounds", r"read|load",
          r"0xfffffffc\b|address -4\b", r"\blane 0\b", r"\bwarp 0\b", r"\bCTA 0\b"]),
    # s[4] (16 bytes) written by threadIdx.x 4 = warp 1, lane 0 of CTA 0; shared byte address 16
    Case("oob_shared", "run", 1,
         [at_cuda_line("oob_shared", {8}), r"bounds", r"\bshared\b", r"write|store",
          r"0x0*10\b|address 16\b", r"\blane 0\b", r"\bwarp 1\b", r"\bCTA 0\b"]),
    # (char*)a + 2: thread 0 loads 4 bytes at address 2
    Case("misaligned", "run", 1,
         [at_cuda_line("misaligned", {7}), r"align", r"0x0*2\b|address 2\b",
          r"\blane 0\b", r"\bwarp 0\b", r"\bCTA 0\b"]),
    # __shfl_down_sync(.., 4) in thread 0 reads lane 4, which is in warp 1
    Case("shfl_cross_warp", "run", 1,
         [at_cuda_line("shfl_cross_warp", {6}), r"shfl|shuffle", r"lane 4\b",
          r"\blane 0\b", r"\bwarp 0\b", r"\bCTA 0\b"]),
    Case("runaway_loop", "run", 1, [r"runaway_loop\.cu", r"\b5000\b", r"--max-steps"],
         ["--max-steps", "5000"]),
    Case("runaway_loop", "run", 1, [r"runaway_loop\.cu", r"\b100\b", r"--max-steps"],
         ["--max-steps", "100"]),
]


def _case_id(c: Case) -> str:
    return f"{c.command}-{c.name}" + ("-" + "_".join(a.strip("-") for a in c.args[:2]) if c.args else "")


@pytest.mark.parametrize("toolchain", TOOLCHAINS)
@pytest.mark.parametrize("case", CASES, ids=_case_id)
def test_bad_input(capsys, monkeypatch, toolchain: str, case: Case) -> None:
    use_toolchain(monkeypatch, toolchain)
    extra = ["--no-ptx"] if case.command == "compile" else []
    res = cli(capsys, case.command, BAD / f"{case.name}.cu", *case.args, *extra)
    assert_error(res, case.rc)
    assert_facts(res, case.clang if toolchain == "clang" and case.clang is not None else case.facts)


@pytest.mark.parametrize("toolchain", TOOLCHAINS)
def test_too_many_rom_blocks(capsys, monkeypatch, toolchain: str) -> None:
    """160 stores, at most two per block: at least 80 blocks, over the default machine's ROM by N - R."""
    use_toolchain(monkeypatch, toolchain)
    res = cli(capsys, "compile", BAD / "too_many_blocks.cu", "--no-ptx")
    assert_error(res, 2)
    assert_facts(res, [r"too_many_blocks\.cu", r"\bblocks?\b", r"\bROM\b"])
    nums = {int(n) for n in re.findall(r"\d+", res.err)}
    R = DEFAULT.rom_blocks
    assert R in nums, f"the message should give the ROM size ({R}){res}"
    assert any(n >= 80 and (n - R) in nums for n in nums), \
        f"the message should give the blocks needed (>= 80) and how many too many (N - {R}){res}"


@pytest.mark.parametrize("toolchain", TOOLCHAINS)
def test_too_many_registers(capsys, monkeypatch, toolchain: str) -> None:
    """30 values + the loop counter live around the loop: >= 31 live values, 15 registers.

    Spilling is tried too, but the spill code then overflows the ROM: the message
    gives the register problem first and what the spilling attempt ran into.
    """
    use_toolchain(monkeypatch, toolchain)
    res = cli(capsys, "compile", BAD / "too_many_regs.cu", "--no-ptx")
    assert_error(res, 2)
    assert_facts(res, [some_location("too_many_regs"), r"register", r"spilling"])
    nums = {int(n) for n in re.findall(r"\d+", res.err)}
    assert 15 in nums, f"the message should give the register limit (15){res}"
    assert any(n >= 31 for n in nums), f"the message should say how many values are live (>= 31){res}"


# Unsupported PTX must be reported at the CUDA line the instruction came from
# (nvcc -lineinfo / clang -g give it), not only at a line of the generated PTX.
CUDA_LINE_CASES = [
    ("float_math", bad_lines("float_math", 1)),  # cvt to float on line 4, fma on line 5
    ("div64", bad_lines("div64", 1)),  # nvcc tags the div with line 0; its operands come from line 5
    ("min64", bad_lines("min64")),
    ("char_store", bad_lines("char_store")),
    ("short_store", bad_lines("short_store")),
    ("device_global", bad_lines("device_global")),
    ("constant_mem", bad_lines("constant_mem")),
    ("printf_call", bad_lines("printf_call")),
    ("noinline_call", bad_lines("noinline_call")),
    ("recursion", bad_lines("recursion")),
]


@pytest.mark.parametrize("toolchain", TOOLCHAINS)
@pytest.mark.parametrize("name,lines", CUDA_LINE_CASES, ids=[c[0] for c in CUDA_LINE_CASES])
def test_unsupported_points_at_cuda_line(capsys, monkeypatch, toolchain: str, name: str,
                                         lines: set[int]) -> None:
    use_toolchain(monkeypatch, toolchain)
    res = cli(capsys, "compile", BAD / f"{name}.cu", "--no-ptx")
    assert_error(res, 2)
    assert_facts(res, [at_cuda_line(name, lines)])


# --- malformed command lines --------------------------------------------------------------------

GOOD_ARGS = {"a": "a=1,2,3,4", "out": "out=zeros:4", "n": "n=4", "k": "k=2"}
LAUNCH = ["--grid", "1", "--block", "4"]


def _args(**change: str | None) -> list[str]:
    """The kernel arguments with some replaced (value) or left out (None)."""
    out = []
    for name, text in GOOD_ARGS.items():
        if name in change:
            if change[name] is not None:
                out.append(change[name])
        else:
            out.append(text)
    return out


ARG_CASES = [
    ("missing_param", _args(k=None) + LAUNCH, [r"(?s)missing.*\bk\b|\bk\b.*missing"]),
    ("unknown_param", _args() + ["foo=3"] + LAUNCH, [r"\bfoo\b"]),
    ("scalar_given_array", _args(n="n=4,5") + LAUNCH, [r"\bn\b", r"scalar|one int"]),
    ("scalar_given_zeros", _args(n="n=zeros:2") + LAUNCH, [r"\bn\b", r"scalar|one int"]),
    ("zeros_negative", _args(out="out=zeros:-1") + LAUNCH, [r"\bout\b", r"zeros:-1"]),
    ("zeros_not_a_number", _args(out="out=zeros:x") + LAUNCH, [r"\bout\b", r"zeros:x"]),
    ("zeros_zero", _args(out="out=zeros:0") + LAUNCH, [r"\bout\b", r"zeros:0"]),
    ("array_element_not_integer", _args(a="a=1,x,3,4") + LAUNCH, [r"a\[1\]", r"\bx\b"]),
    ("array_element_empty", _args(a="a=1,,3") + LAUNCH, [r"a\[1\]"]),
    ("array_empty", _args(a="a=") + LAUNCH, [r"\ba\b"]),
    ("scalar_not_integer", _args(n="n=1.5") + LAUNCH, [r"\bn\b", r"1\.5"]),
    ("scalar_empty", _args(n="n=") + LAUNCH, [r"\bn\b"]),
    ("value_above_32_bits", _args(k="k=4294967296") + LAUNCH, [r"4294967296", r"32"]),
    ("value_below_32_bits", _args(n="n=-2147483649") + LAUNCH, [r"-2147483649", r"32"]),
    ("element_above_32_bits", _args(a="a=1,8589934592") + LAUNCH, [r"8589934592", r"32"]),
    ("no_equals_sign", _args(k="k2") + LAUNCH, [r"k2", r"="]),
    ("empty_name", _args() + ["=3"] + LAUNCH, [r"=3"]),
    ("duplicate_param", _args() + ["n=5"] + LAUNCH, [r"\bn\b", r"twice|duplicate|more than once"]),
    ("grid_zero", _args() + ["--grid", "0", "--block", "4"], [r"grid", r"\b0\b"]),
    ("block_zero", _args() + ["--grid", "1", "--block", "0"], [r"block", r"\b0\b"]),
    ("grid_negative", _args() + ["--grid", "-1", "--block", "4"], [r"grid", r"-1\b"]),
    ("grid_not_integer", _args() + ["--grid", "x", "--block", "4"], [r"--grid", r"\bx\b"]),
    # 2 CTAs x ceil(16/4) warps = 8 warps; the machine has 4
    ("too_many_warps", _args() + ["--grid", "2", "--block", "16"], [r"\b8\b", r"\b4\b", r"warp"]),
    # 200 + 4 words; the machine has 126: over by 78
    ("memory_over_126_words", _args(a="a=zeros:200") + LAUNCH, [r"\b204\b", r"\b126\b", r"\b78\b"]),
    ("unknown_kernel", _args() + LAUNCH + ["--kernel", "nope"], [r"\bnope\b", r"args_target"]),
    ("no_launch_config", _args(), [r"--grid", r"--block"]),
    ("max_steps_negative", _args() + LAUNCH + ["--max-steps", "-1"], [r"--max-steps"]),
    # refused before any checkpoint is built or loaded (a device index no machine has)
    ("device_not_a_torch_device", _args() + LAUNCH + ["--backend", "model", "--device", "tpu"], [r"tpu", r"cuda"]),
    ("device_absent", _args() + LAUNCH + ["--backend", "model", "--device", "cuda:99"], [r"cuda:99"]),
    ("device_without_model", _args() + LAUNCH + ["--device", "cuda"], [r"--backend model"]),
]


@needs_compiler
@pytest.mark.parametrize("argv,facts", [c[1:] for c in ARG_CASES], ids=[c[0] for c in ARG_CASES])
def test_malformed_arguments(capsys, argv: list[str], facts: list[str]) -> None:
    res = cli(capsys, "run", ARGS_TARGET, *argv)
    assert_error(res, 2)
    assert_facts(res, facts)


@needs_compiler
def test_args_target_runs(capsys) -> None:
    """Sanity: the target of the malformed-argument tests is itself fine."""
    res = cli(capsys, "run", ARGS_TARGET, *_args(), *LAUNCH, "--json")
    assert res.rc == 0, res
    assert '"out": [2, 4, 6, 8]' in res.out, res


@needs_compiler
def test_arguments_after_options_are_accepted(capsys) -> None:
    """The documented form: 'qgpu run FILE --grid G --block B NAME=VALUES ...' (see --help)."""
    res = cli(capsys, "run", ARGS_TARGET, *LAUNCH, *_args(), "--json")
    assert "Traceback" not in res.err, res
    assert res.rc == 0, res
    assert '"out": [2, 4, 6, 8]' in res.out, res


@pytest.mark.parametrize("command", ["compile", "run"])
def test_nonexistent_file(capsys, command: str) -> None:
    extra = LAUNCH if command == "run" else []
    res = cli(capsys, command, BAD / "no_such_kernel.cu", *extra)
    assert_error(res, 2)
    assert_facts(res, [r"no_such_kernel\.cu", r"no such file|not found|does not exist"])


def test_unknown_command(capsys) -> None:
    res = cli(capsys, "frobnicate", ARGS_TARGET)
    assert_error(res, 2)


# --- one end-to-end run in a real process ---------------------------------------------------------


@needs_compiler
def test_subprocess_fault_has_no_traceback() -> None:
    proc = subprocess.run([sys.executable, "-m", "app.cli", "run", str(BAD / "oob_past_end.cu")],
                          cwd=ROOT, capture_output=True, text=True, timeout=120)
    res = Res(proc.returncode, proc.stdout, proc.stderr)
    assert "Traceback" not in proc.stderr and "Traceback" not in proc.stdout, res
    assert proc.returncode == 1, res
    assert_facts(res, [at_cuda_line("oob_past_end", {9}), r"0x0*30\b|address 48\b",
                       r"\blane 0\b", r"\bwarp 3\b", r"\bCTA 1\b"])


def test_build_refuses_a_rom_the_circuit_cannot_hold(capsys, tmp_path) -> None:
    """A lane's pc entry is one 64-column value head: 61 blocks at most (compiler/circuit/dims.py).
    The limit is stated before any weight is computed, and nothing is written."""
    res = cli(capsys, "build", "--out", tmp_path / "ck", "--machine", "4:62")
    assert_error(res, 2)
    assert_facts(res, [r"--machine 4:62", r"\b61\b"])
    assert not (tmp_path / "ck").exists()
