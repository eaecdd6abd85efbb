"""CUDA source -> PTX text, with nvcc when it is on PATH, else clang's NVPTX backend.

``QGPU_CUDA_COMPILER=nvcc|clang`` forces one; ``CLANG`` names the clang binary.
Clang is run without any CUDA SDK (``-nocudainc``) on our own small header,
``compiler/cuda/qgpu_cuda.h``. Results are cached by source and command line.
"""

from __future__ import annotations

import hashlib
import os
import re
import shutil
import subprocess
import tempfile
from dataclasses import dataclass
from pathlib import Path

from compiler.errors import CompileError

HEADER = Path(__file__).parent / "cuda" / "qgpu_cuda.h"
CACHE_VERSION = "2"


@dataclass(frozen=True)
class Toolchain:
    name: str  # "nvcc" or "clang"
    path: str

    def command(self, src: Path, out: Path) -> list[str]:
        if self.name == "nvcc":
            return [self.path, "-ptx", "-O3", "-lineinfo", "-arch=sm_75", str(src), "-o", str(out)]
        # +ptx70: clang 14 enables no PTX version of its own without a CUDA SDK it
        # recognises, and the *_sync builtins need one.
        return [self.path, "-x", "cuda", "--cuda-device-only", "--cuda-gpu-arch=sm_70",
                "-nocudainc", "-nocudalib", "-Xclang", "-target-feature", "-Xclang", "+ptx70",
                "-Wno-unknown-cuda-version", "-O3", "-gline-tables-only", "-S",
                "-include", str(HEADER), str(src), "-o", str(out)]


def find_toolchain() -> Toolchain:
    forced = os.environ.get("QGPU_CUDA_COMPILER", "").strip().lower()
    clang_env = os.environ.get("CLANG")
    nvcc = shutil.which("nvcc")
    clang = clang_env or shutil.which("clang") or shutil.which("clang-14") or shutil.which("clang-15")
    if forced == "nvcc" or (not forced and nvcc):
        if not nvcc:
            raise CompileError("QGPU_CUDA_COMPILER=nvcc but nvcc is not on PATH")
        return Toolchain("nvcc", nvcc)
    if forced in ("", "clang"):
        if clang and (clang_env or shutil.which(clang)):
            return Toolchain("clang", clang)
        raise CompileError(
            "no CUDA compiler found: install nvcc (CUDA toolkit) or clang with the NVPTX backend "
            "(e.g. 'apt-get install clang'), or set CLANG=/path/to/clang")
    raise CompileError(f"QGPU_CUDA_COMPILER must be 'nvcc' or 'clang', not {forced!r}")


def _cache_dir() -> Path:
    base = os.environ.get("QGPU_CACHE") or os.path.join(
        os.environ.get("XDG_CACHE_HOME") or os.path.expanduser("~/.cache"), "qgpu")
    return Path(base) / "ptx"


_NVCC_DIAG = re.compile(r"^(?P<file>.*?)\((?P<line>\d+)\): (?P<kind>error|catastrophic error)[^:]*: (?P<msg>.*)$")
_CLANG_DIAG = re.compile(r"^(?P<file>.*?):(?P<line>\d+):\d+: (?P<kind>error|fatal error): (?P<msg>.*)$")


def cuda_to_ptx(source: str, filename: str, toolchain: Toolchain | None = None, unroll: str = "default") -> str:
    """Compile ``source`` (read from ``filename``, used for messages) to PTX text.

    ``unroll``: ``default`` (the compiler decides), ``rolled`` (loops without an
    unroll pragma stay rolled) or ``none`` (every loop stays rolled).
    """
    tc = toolchain or find_toolchain()
    text = source if unroll == "default" else roll_loops(source, override=unroll == "none")
    key = hashlib.sha256("\0".join([CACHE_VERSION, " ".join(tc.command(Path("k.cu"), Path("k.ptx"))), text,
                                    HEADER.read_text() if tc.name == "clang" else ""]).encode()).hexdigest()
    cached = _cache_dir() / f"{key}.ptx"
    if cached.exists():
        return cached.read_text()
    with tempfile.TemporaryDirectory(prefix="qgpu-") as tmp:
        src = Path(tmp) / Path(filename).name
        if src.suffix != ".cu":
            src = src.with_suffix(".cu")
        src.write_text(text)
        out = Path(tmp) / "out.ptx"
        try:
            proc = subprocess.run(tc.command(src, out), capture_output=True, text=True, timeout=120)
        except subprocess.TimeoutExpired:
            raise CompileError(f"{tc.name} took longer than 120 s", file=filename) from None
        if proc.returncode != 0 or not out.exists():
            raise _compiler_error(proc.stderr + proc.stdout, filename, src, tc.name)
        ptx = out.read_text()
    try:
        cached.parent.mkdir(parents=True, exist_ok=True)
        part = cached.with_suffix(f".{os.getpid()}.part")  # a reader never sees half a file
        part.write_text(ptx)
        part.replace(cached)
    except OSError:
        pass  # a read-only cache only costs time
    return ptx


_LOOP = re.compile(r"\b(for|while|do)\b")


_UNROLL_PRAGMA = re.compile(r"^([ \t]*#[ \t]*pragma[ \t]+unroll)\b[^\n]*", re.M)


def roll_loops(source: str, override: bool = False) -> str:
    """``source`` with ``_Pragma("unroll 1")`` in front of every loop that has no unroll pragma.

    Neither nvcc nor clang has a flag that only stops loop unrolling; the pragma
    does, and inserting it on the loop's own line keeps every line number. The
    ``while`` of ``do ... while`` (after a ``}``) is left alone. With ``override``
    the kernel's own ``#pragma unroll [N]`` lines become ``#pragma unroll 1`` too
    (unrolling is a speed hint; it never changes what a kernel computes).
    """
    if override:
        source = _UNROLL_PRAGMA.sub(lambda m: m.group(1) + " 1", source)
    code = _strip_comments(source)
    code = re.sub(r'"(?:\\.|[^"\\\n])*"', lambda m: " " * len(m.group(0)), code)  # and strings
    out, last = [], 0
    for m in _LOOP.finditer(code):
        before = code[:m.start()].rstrip()
        if m.group(1) == "while" and before.endswith("}"):
            continue
        prev_line = before.rsplit("\n", 1)[-1].strip()
        if prev_line.startswith("#pragma") and "unroll" in prev_line or before.endswith(")") and \
                before[-40:].replace(" ", "").endswith('_Pragma("unroll1")'):
            continue
        if code[:m.start()].rsplit("\n", 1)[-1].lstrip().startswith("#"):
            continue  # inside a preprocessor line
        out.append(source[last:m.start()])
        out.append('_Pragma("unroll 1") ')
        last = m.start()
    out.append(source[last:])
    return "".join(out)


def _compiler_error(output: str, filename: str, tmp_src: Path, tool: str) -> CompileError:
    text = output.replace(str(tmp_src), filename)
    for line in text.splitlines():
        m = _NVCC_DIAG.match(line) or _CLANG_DIAG.match(line)
        if m and m.group("file").endswith(Path(filename).name):
            return CompileError(m.group("msg").strip(), file=filename, line=int(m.group("line")),
                                detail=f"{tool} said:\n{text.rstrip()}")
    return CompileError(f"{tool} failed", file=filename, detail=text.rstrip())


# --- kernel signatures from the CUDA source --------------------------------------------------

_KERNEL = re.compile(r"__global__\s+(?:(?:static|inline|__launch_bounds__\s*\([^)]*\))\s+)*void\s+(\w+)\s*\(([^)]*)\)",
                     re.S)
_UNSIGNED = re.compile(r"\bunsigned\b|\buint32_t\b|\buint\b")
_SUPPORTED_SCALARS = re.compile(r"^((?:const|volatile)\s+)*(signed\s+|unsigned\s+)?(int|uint32_t|int32_t|unsigned|uint)(\s+const)?$")


@dataclass(frozen=True)
class CudaParam:
    name: str
    ctype: str
    is_pointer: bool
    unsigned: bool
    line: int


@dataclass(frozen=True)
class CudaKernel:
    name: str
    params: tuple[CudaParam, ...]
    line: int


def _strip_comments(src: str) -> str:
    return re.sub(r"//[^\n]*|/\*.*?\*/", lambda m: re.sub(r"[^\n]", " ", m.group(0)), src, flags=re.S)


def kernel_signatures(source: str, filename: str) -> list[CudaKernel]:
    """The ``__global__`` functions of a CUDA file, with parameter names and types."""
    clean = _strip_comments(source)
    kernels = []
    for m in _KERNEL.finditer(clean):
        line = clean.count("\n", 0, m.start()) + 1
        params = []
        text = m.group(2).strip()
        if text and text != "void":
            for raw in text.split(","):
                p = " ".join(raw.replace("__restrict__", " ").replace("__restrict", " ").split())
                pm = re.match(r"^(.*?)(\w+)$", p)
                if not pm:
                    raise CompileError(f"cannot read parameter {raw.strip()!r} of kernel {m.group(1)}",
                                       file=filename, line=line)
                ctype, name = pm.group(1).strip(), pm.group(2)
                is_ptr = "*" in ctype
                base = ctype.replace("*", " ").strip()
                base = " ".join(base.split())
                if not _SUPPORTED_SCALARS.match(base):
                    raise CompileError(
                        f"parameter '{name}' of kernel {m.group(1)} has type '{ctype}': only int and "
                        "unsigned values and pointers to them are supported", file=filename, line=line)
                if is_ptr and ctype.count("*") > 1:
                    raise CompileError(f"parameter '{name}': pointers to pointers are not supported",
                                       file=filename, line=line)
                params.append(CudaParam(name, ctype, is_ptr, bool(_UNSIGNED.search(base)), line))
        kernels.append(CudaKernel(m.group(1), tuple(params), line))
    return kernels


def ptx_entry_for(name: str, entries: list[str]) -> str | None:
    """The PTX entry of CUDA kernel ``name``: itself (extern "C") or its C++ mangled form."""
    if name in entries:
        return name
    prefix = f"_Z{len(name)}{name}"
    hits = [e for e in entries if e.startswith(prefix)]
    return hits[0] if len(hits) == 1 else None
