"""A launch: grid and block size, kernel arguments, and the memory layout they imply.

The host's job ends here: it lays the arrays out in the 126 words and turns every
pointer argument into a byte address. Everything after is the machine's work.
"""

from __future__ import annotations

import shlex
from dataclasses import dataclass, field
from pathlib import Path

from compiler.errors import LaunchError
from compiler.machine.config import DEFAULT, MachineConfig, check_same_machine
from compiler.machine.isa import Program

HEADER_TAG = "// qgpu:"


@dataclass(frozen=True)
class Thread:
    """Where one CUDA thread lives on the machine."""

    warp: int
    lane: int
    cta: int
    tid: int  # threadIdx.x


@dataclass
class MemoryLayout:
    arrays: dict[str, tuple[int, int]]
    """Pointer parameter -> (first word, length)."""
    global_words: int
    shared_words: int
    """Shared words per CTA."""
    shared_base: list[int]
    """First word of each CTA's shared memory."""
    local_words: int = 0
    """Local words per thread (stack arrays, register spills)."""
    local_base: int = 0
    """First word of the local region: thread k of the launch owns ``local_words`` words from
    ``local_base + k * local_words`` (k counts threads CTA by CTA, as ``Launch.threads``)."""
    threads: int = 0

    @property
    def total_words(self) -> int:
        return self.global_words + self.shared_words * len(self.shared_base) + self.local_words * self.threads

    def owner(self, word: int) -> str:
        """Human name of a memory word, e.g. ``a[2]`` or ``shared(CTA 1)[0]``."""
        for name, (base, n) in self.arrays.items():
            if base <= word < base + n:
                return f"{name}[{word - base}]"
        for cta, base in enumerate(self.shared_base):
            if base <= word < base + self.shared_words:
                return f"shared(CTA {cta})[{word - base}]"
        if self.local_words and self.local_base <= word < self.local_base + self.local_words * self.threads:
            k, off = divmod(word - self.local_base, self.local_words)
            return f"local(thread {k})[{off}]"
        return f"word {word}"


@dataclass
class Launch:
    grid: int
    block: int
    args: dict[str, list[int] | int]
    """Pointer params -> initial words (unsigned 32-bit patterns); scalars -> value."""
    kernel: str | None = None
    layout: MemoryLayout | None = None
    param_values: list[int] = field(default_factory=list)
    threads: list[Thread] = field(default_factory=list)

    @property
    def warps(self) -> int:
        return len({t.warp for t in self.threads})


def parse_value(text: str, what: str) -> int:
    try:
        v = int(text.strip(), 0)
    except ValueError:
        raise LaunchError(f"{what}: {text.strip()!r} is not an integer") from None
    if not -(1 << 31) <= v < (1 << 32):
        raise LaunchError(f"{what}: {v} does not fit in 32 bits")
    return v & 0xFFFFFFFF


def parse_array(text: str, name: str) -> list[int]:
    text = text.strip()
    if text.startswith("zeros:"):
        n = text[len("zeros:"):]
        if not n.isdigit() or int(n) <= 0:
            raise LaunchError(f"{name}=zeros:N needs a positive N, got {text!r}")
        return [0] * int(n)
    if not text:
        raise LaunchError(f"{name}= needs comma-separated integers or zeros:N")
    return [parse_value(t, f"{name}[{i}]") for i, t in enumerate(text.split(","))]


def parse_assignments(items: list[str]) -> dict[str, str]:
    out: dict[str, str] = {}
    for item in items:
        if "=" not in item:
            raise LaunchError(f"argument {item!r} is not NAME=VALUES")
        name, value = item.split("=", 1)
        if not name.isidentifier():
            raise LaunchError(f"argument {item!r}: {name!r} is not a parameter name")
        if name in out:
            raise LaunchError(f"parameter '{name}' given twice")
        out[name] = value
    return out


@dataclass
class SampleHeader:
    """The launch a kernel file carries on ``// qgpu:`` lines, in command-line form.

    Example: ``// qgpu: --grid 1 --block 4 a=1,2,3 out=zeros:3 n=3``.
    """

    grid: int | None = None
    block: int | None = None
    kernel: str | None = None
    args: list[str] = field(default_factory=list)


def read_header(path: str | Path) -> SampleHeader:
    try:
        text = Path(path).read_text()
    except (OSError, UnicodeDecodeError):
        return SampleHeader()  # the compiler reports unreadable files
    words: list[tuple[str, int]] = []
    for n, line in enumerate(text.splitlines(), 1):
        if line.strip().startswith(HEADER_TAG):
            try:
                words += [(w, n) for w in shlex.split(line.strip()[len(HEADER_TAG):])]
            except ValueError as e:
                raise LaunchError(f"'{HEADER_TAG}' header: {e}", file=str(path), line=n) from None
    h = SampleHeader()
    it = iter(words)
    for w, n in it:
        def bad(msg: str) -> LaunchError:
            return LaunchError(f"'{HEADER_TAG}' header: {msg}", file=str(path), line=n)

        if w in ("--grid", "--block", "--kernel"):
            v = next(it, (None, n))[0]
            if v is None:
                raise bad(f"{w} needs a value")
            if w == "--kernel":
                h.kernel = v
                continue
            try:
                setattr(h, w[2:], int(v))
            except ValueError:
                raise bad(f"{w} {v!r} is not an integer") from None
        elif w.startswith("--"):
            raise bad(f"unknown option {w}")
        else:
            h.args.append(w)
    return h


def build_launch(program: Program, grid: int, block: int, raw_args: dict[str, str],
                 cfg: MachineConfig | None = None) -> Launch:
    """The launch of ``program`` on ``cfg`` (default: the machine it was compiled for)."""
    cfg = cfg or program.machine or DEFAULT
    check_same_machine(program.machine, cfg, f"kernel '{program.kernel}'")
    if grid < 1 or block < 1:
        raise LaunchError(f"--grid and --block must be at least 1 (got grid {grid}, block {block})")
    warps_per_cta = -(-block // cfg.lanes)
    if grid * warps_per_cta > cfg.max_warps:
        raise LaunchError(
            f"grid {grid} x block {block} needs {grid * warps_per_cta} warps of {cfg.lanes} lanes; "
            f"the machine runs at most {cfg.max_warps} ({cfg.max_threads} threads, e.g. "
            f"--grid 1 --block {cfg.max_threads} or --grid {cfg.max_warps} --block {cfg.lanes})")
    known = {p.name for p in program.params}
    unknown = sorted(set(raw_args) - known)
    if unknown:
        raise LaunchError(f"kernel '{program.kernel}' has no parameter named {', '.join(unknown)} "
                          f"(its parameters: {', '.join(p.name for p in program.params) or 'none'})")
    args: dict[str, list[int] | int] = {}
    arrays: dict[str, tuple[int, int]] = {}
    param_values: list[int] = []
    word = 0
    for p in program.params:
        if p.name not in raw_args:
            hint = "comma-separated ints or zeros:N" if p.is_pointer else "one int"
            raise LaunchError(f"missing argument for parameter '{p.name}' ({p.ctype}): give {p.name}=<{hint}>")
        raw = raw_args[p.name]
        if p.is_pointer:
            data = parse_array(raw, p.name)
            args[p.name] = data
            arrays[p.name] = (word, len(data))
            param_values.append(word * 4)
            word += len(data)
        else:
            if "," in raw or raw.strip().startswith("zeros:"):
                raise LaunchError(f"parameter '{p.name}' ({p.ctype}) is a scalar: give one int")
            v = parse_value(raw, p.name)
            args[p.name] = v
            param_values.append(v)
    shared_base = [word + cta * program.shared_words for cta in range(grid)]
    layout = MemoryLayout(arrays, word, program.shared_words, shared_base, program.local_words,
                          word + grid * program.shared_words, grid * block)
    if layout.total_words > cfg.mem_words:
        parts = [f"{n}: {ln}" for n, (_, ln) in arrays.items()]
        if program.shared_words:
            parts.append(f"shared: {program.shared_words} x {grid} CTAs")
        if program.local_words:
            parts.append(f"local (stack arrays, register spills): {program.local_words} x {grid * block} threads")
        raise LaunchError(f"the launch needs {layout.total_words} words of memory but the machine has "
                          f"{cfg.mem_words} (over by {layout.total_words - cfg.mem_words}; "
                          + ", ".join(parts) + ")")
    threads = []
    for cta in range(grid):
        for tid in range(block):
            threads.append(Thread(warp=cta * warps_per_cta + tid // cfg.lanes, lane=tid % cfg.lanes,
                                  cta=cta, tid=tid))
    return Launch(grid, block, args, program.kernel, layout, param_values, threads)
