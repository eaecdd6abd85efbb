"""PTX text -> PTX IR: kernels, parameters, shared variables, labelled instructions.

Covers what nvcc and clang emit for integer kernels. Anything else is refused
later, by the lowering pass, with the instruction's name and PTX line.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from compiler.errors import QgpuError


@dataclass(frozen=True)
class PReg:
    """A PTX register operand such as ``%r5``, ``%rd2``, ``%p1``; ``neg`` for ``!%p1``."""

    name: str
    neg: bool = False


@dataclass(frozen=True)
class PSpecial:
    """A special register such as ``%tid.x``."""

    name: str


@dataclass(frozen=True)
class PImm:
    value: int


@dataclass(frozen=True)
class PSym:
    """A symbol: a shared variable, a kernel parameter or a label."""

    name: str


@dataclass(frozen=True)
class PAddr:
    """``[base+offset]``; base is a register or a symbol (or None for an absolute address)."""

    base: PReg | PSym | None
    offset: int


@dataclass(frozen=True)
class PVec:
    items: tuple["POperand", ...]


@dataclass(frozen=True)
class PPair:
    """``%r1|%p1``: the two destinations of ``shfl.sync``."""

    first: PReg
    second: PReg


POperand = PReg | PSpecial | PImm | PSym | PAddr | PVec | PPair


@dataclass
class PtxInstr:
    opcode: str
    """Full opcode with modifiers, e.g. ``setp.ge.s32``."""
    operands: list[POperand]
    guard: PReg | None
    line: int
    cuda_line: int | None = None

    @property
    def parts(self) -> list[str]:
        return self.opcode.split(".")

    @property
    def base(self) -> str:
        return self.parts[0]

    def __str__(self) -> str:
        return f"line {self.line}: {self.opcode}"


@dataclass
class PtxLabel:
    name: str
    line: int


@dataclass
class PtxParam:
    name: str
    type: str
    """``u64``, ``u32``, ``s32``, ``b32``, ..."""
    line: int


@dataclass
class PtxKernel:
    name: str
    params: list[PtxParam]
    body: list[PtxInstr | PtxLabel]
    shared: dict[str, int] = field(default_factory=dict)
    """Shared variable -> size in bytes (declared in the kernel or at module scope)."""
    shared_align: dict[str, int] = field(default_factory=dict)
    local_bytes: int = 0
    """Size of the kernel's stack frame (``.local ... __local_depot0[N]``)."""
    line: int = 0


@dataclass
class PtxModule:
    kernels: list[PtxKernel]
    text: str
    functions: list[str] = field(default_factory=list)
    """Non-kernel ``.func`` names (calls are not supported: reported if used)."""
    globals: list[tuple[str, int]] = field(default_factory=list)
    """Module ``.global``/``.const`` variables (name, line): not supported."""


_COMMENT = re.compile(r"//[^\n]*|/\*.*?\*/", re.S)
_LABEL = re.compile(r"^\s*([$%\w.]+)\s*:")
_ENTRY = re.compile(r"(?:\.visible\s+|\.weak\s+)?\.entry\s+([\w$.]+)\s*\(")
_FUNC = re.compile(r"(?:\.visible\s+|\.extern\s+|\.weak\s+)*\.func\s+(?:\([^)]*\)\s*)?([\w$.]+)")
_SHARED = re.compile(r"\.shared\s+(?:\.align\s+(\d+)\s+)?\.(\w+)\s+([\w$.]+)(?:\[(\d*)\])?")
_GLOBALVAR = re.compile(r"^\s*(?:\.visible\s+|\.extern\s+)?\.(global|const)\s+.*?([\w$.]+)(?:\[\d*\])?\s*(?:=.*)?$", re.S)
_TYPE_BYTES = {"b8": 1, "u8": 1, "s8": 1, "b16": 2, "u16": 2, "s16": 2, "b32": 4, "u32": 4,
               "s32": 4, "b64": 8, "u64": 8, "s64": 8, "f32": 4, "f64": 8}


def _blank_comments(text: str) -> str:
    """Remove comments but keep every newline, so offsets still map to line numbers."""
    return _COMMENT.sub(lambda m: "\n" * m.group(0).count("\n"), text)


class _Lines:
    def __init__(self, text: str):
        self.starts = [0] + [i + 1 for i, c in enumerate(text) if c == "\n"]

    def line(self, pos: int) -> int:
        import bisect

        return bisect.bisect_right(self.starts, pos)


def parse_ptx(text: str, filename: str = "<ptx>") -> PtxModule:
    clean = _blank_comments(text)
    lines = _Lines(clean)
    module = PtxModule(kernels=[], text=text)
    module_shared: dict[str, tuple[int, int]] = {}
    pos = 0
    n = len(clean)
    while pos < n:
        m = _ENTRY.search(clean, pos)
        chunk_end = m.start() if m else n
        _scan_module_level(clean[pos:chunk_end], pos, lines, module, module_shared)
        if not m:
            break
        close = clean.find(")", m.end())
        if close < 0:
            raise QgpuError(f"unterminated parameter list of .entry {m.group(1)}", file=filename,
                            line=lines.line(m.start()))
        params = _parse_params(clean[m.end():close], m.end(), lines)
        open_brace = clean.find("{", close)
        end = _matching_brace(clean, open_brace, filename, lines)
        kernel = PtxKernel(name=m.group(1), params=params, body=[], line=lines.line(m.start()))
        _parse_body(clean[open_brace + 1:end], open_brace + 1, lines, kernel, filename,
                    _main_file(clean, filename))
        for name, (size, align) in module_shared.items():
            kernel.shared.setdefault(name, size)
            kernel.shared_align.setdefault(name, align)
        module.kernels.append(kernel)
        pos = end + 1
    return module


def _scan_module_level(chunk: str, offset: int, lines: _Lines, module: PtxModule,
                       shared: dict[str, tuple[int, int]]) -> None:
    for fm in _FUNC.finditer(chunk):
        module.functions.append(fm.group(1))
    # .version/.target/.address_size/.file end at the line, not at a ';'
    chunk = re.sub(r"^[ \t]*\.(version|target|address_size|file)\b[^\n]*", lambda m: " " * len(m.group(0)),
                   chunk, flags=re.M)
    for stmt_m in re.finditer(r"[^;{}]+;", chunk):
        stmt = stmt_m.group(0)[:-1].strip()
        if stmt.startswith(".shared") or " .shared " in f" {stmt} ":
            sm = _SHARED.search(stmt)
            if sm:
                align = int(sm.group(1) or 4)
                elem = _TYPE_BYTES.get(sm.group(2), 4)
                count = int(sm.group(4)) if sm.group(4) else 1
                shared[sm.group(3)] = (elem * count, align)
        elif re.match(r"(\.visible\s+|\.extern\s+|\.weak\s+)*\.(global|const)\b", stmt):
            gm = _GLOBALVAR.match(stmt)
            name = gm.group(2) if gm else stmt.split()[-1]
            lead = len(stmt_m.group(0)) - len(stmt_m.group(0).lstrip())
            module.globals.append((name, lines.line(offset + stmt_m.start() + lead)))


def _matching_brace(text: str, open_pos: int, filename: str, lines: _Lines) -> int:
    depth = 0
    for i in range(open_pos, len(text)):
        if text[i] == "{":
            depth += 1
        elif text[i] == "}":
            depth -= 1
            if depth == 0:
                return i
    raise QgpuError("unbalanced braces in kernel body", file=filename, line=lines.line(open_pos))


def _parse_params(text: str, offset: int, lines: _Lines) -> list[PtxParam]:
    params = []
    for m in re.finditer(r"\.param\s+((?:\.\w+\s+)*)([\w$.]+)", text):
        mods = m.group(1).split()
        types = [t[1:] for t in mods if t[1:] in _TYPE_BYTES]
        params.append(PtxParam(name=m.group(2), type=types[0] if types else "b8",
                               line=lines.line(offset + m.start())))
    return params


def _main_file(text: str, filename: str) -> int:
    """The ``.file`` number of the CUDA source itself (not of headers it includes)."""
    stem = filename[:-4] if filename.endswith(".ptx") else filename
    base = stem.replace("\\", "/").rsplit("/", 1)[-1]
    for m in re.finditer(r'\.file\s+(\d+)\s+"([^"]*)"', text):
        if m.group(2).replace("\\", "/").rsplit("/", 1)[-1] == base:
            return int(m.group(1))
    return 1


def _parse_body(body: str, offset: int, lines: _Lines, kernel: PtxKernel, filename: str,
                main_file: int = 1) -> None:
    cuda_line: int | None = None
    # { } blocks inside a kernel (inline asm, call sequences) may declare registers
    # that shadow outer ones: each such name is renamed per block
    scopes: list[dict[str, str]] = [{}]
    scope_ids: list[int] = [0]
    blocks_seen = 0
    for start_pos, raw in _statements(body):
        if raw == "{":
            blocks_seen += 1
            scopes.append({})
            scope_ids.append(blocks_seen)
            continue
        if raw == "}":
            if len(scopes) > 1:
                scopes.pop()
                scope_ids.pop()
            continue
        stmt = raw[:-1]
        start = offset + start_pos + (len(stmt) - len(stmt.lstrip()))
        stmt = stmt.strip()
        # labels, .loc and .pragma lines (none has a ';' of its own) in front of the statement
        while True:
            lm = _LABEL.match(stmt)
            if lm and not lm.group(1).startswith("."):
                kernel.body.append(PtxLabel(lm.group(1), lines.line(start)))
                cut = lm.end()
            else:
                lm = re.match(r"\.loc\s+(\d+)\s+(\d+)\s+\d+[^\n]*|\.pragma[^\n]*", stmt)
                if lm is None:
                    break
                if stmt.startswith(".loc") and int(lm.group(1)) == main_file:
                    cuda_line = int(lm.group(2)) or cuda_line
                cut = lm.end()
            rest = stmt[cut:]
            start += cut + (len(rest) - len(rest.lstrip()))
            stmt = rest.strip()
        if not stmt:
            continue
        line = lines.line(start)
        if stmt.startswith(".reg") and len(scopes) > 1:
            _declare_scoped(stmt, scopes[-1], scope_ids[-1])
            continue
        if stmt.startswith("."):
            _body_directive(stmt, kernel, line)
            continue
        ins = _parse_instr(stmt, line, cuda_line, filename)
        if len(scopes) > 1:
            ins.operands = [_rename(o, scopes) for o in ins.operands]
            if ins.guard is not None:
                ins.guard = _rename(ins.guard, scopes)
        kernel.body.append(ins)


def _statements(body: str):
    """(offset, text) of each ``{``, ``}`` and ``...;`` statement of a kernel body.

    A brace opens or closes a block only where a statement could start; inside a
    statement it belongs to a vector operand (``ld.v2.u32 {%r1, %r2}, [a];``).
    """
    start, depth = None, 0
    for i, ch in enumerate(body):
        if start is None:
            if ch in "{}":
                yield i, ch
            elif not ch.isspace():
                start, depth = i, 0
                if ch == ";":
                    start = None
            continue
        if ch == "\n" and body.startswith(".loc", start):  # .loc ends at its line
            yield start, body[start:i] + ";"
            start = None
        elif ch == "{":
            depth += 1
        elif ch == "}":
            depth -= 1
        elif ch == ";" and depth <= 0:
            yield start, body[start:i + 1]
            start = None
        elif ch == ":" and depth <= 0 and re.fullmatch(r"\s*[$%\w.]+", body[start:i]):
            # a label ends here; a block may open right after it
            yield start, body[start:i + 1] + ";"
            start = None


def _declare_scoped(stmt: str, scope: dict[str, str], scope_id: int) -> None:
    """Record the registers a nested ``.reg`` declares, under block-unique names."""
    for name in re.split(r"\s*,\s*", stmt.split(None, 2)[-1]):
        m = re.match(r"^(%?[\w$]+)(?:<(\d+)>)?$", name.strip())
        if not m:
            continue
        base, count = m.group(1), m.group(2)
        for n in ([f"{base}{i}" for i in range(int(count))] if count else [base]):
            scope[n] = f"{n}__b{scope_id}"


def _rename(op, scopes: list[dict[str, str]]):
    if isinstance(op, PReg):
        for scope in reversed(scopes):
            if op.name in scope:
                return PReg(scope[op.name], op.neg)
        return op
    if isinstance(op, PSym):  # clang's scoped names may lack the '%'
        for scope in reversed(scopes):
            if op.name in scope:
                return PReg("%" + scope[op.name])
        return op
    if isinstance(op, PAddr) and op.base is not None:
        return PAddr(_rename(op.base, scopes), op.offset)
    if isinstance(op, PVec):
        return PVec(tuple(_rename(o, scopes) for o in op.items))
    if isinstance(op, PPair):
        return PPair(_rename(op.first, scopes), _rename(op.second, scopes))
    return op


def _body_directive(stmt: str, kernel: PtxKernel, line: int) -> None:
    if stmt.startswith(".shared"):
        sm = _SHARED.search(stmt)
        if sm:
            elem = _TYPE_BYTES.get(sm.group(2), 4)
            count = int(sm.group(4)) if sm.group(4) else 1
            kernel.shared[sm.group(3)] = elem * count
            kernel.shared_align[sm.group(3)] = int(sm.group(1) or 4)
    elif stmt.startswith(".local"):
        lm = _SHARED.search(stmt.replace(".local", ".shared", 1))
        if lm:
            elem = _TYPE_BYTES.get(lm.group(2), 4)
            count = int(lm.group(4)) if lm.group(4) else 1
            kernel.local_bytes += elem * count
    # .reg and .pragma carry nothing the lowering needs


_INT = re.compile(r"^[+-]?(0[xX][0-9a-fA-F]+|\d+)U?$")


def _parse_operand(tok: str, line: int, filename: str) -> POperand:
    tok = tok.strip()
    if tok.startswith("{") and tok.endswith("}"):
        return PVec(tuple(_parse_operand(t, line, filename) for t in _split_top(tok[1:-1])))
    if tok.startswith("[") and tok.endswith("]"):
        inner = tok[1:-1].replace(" ", "")
        m = re.match(r"^([%$\w.]+)?(?:\+?([+-]?(?:0[xX][0-9a-fA-F]+|\d+)))?$", inner)
        if not m:
            raise QgpuError(f"cannot parse address operand {tok}", file=filename, line=line)
        base_s, off_s = m.group(1), m.group(2)
        if base_s and _INT.match(base_s) and off_s is None:
            return PAddr(None, int(base_s, 0))
        base: PReg | PSym | None = None
        if base_s:
            base = PReg(base_s) if base_s.startswith("%") else PSym(base_s)
        return PAddr(base, int(off_s, 0) if off_s else 0)
    if "|" in tok:
        a, b = tok.split("|", 1)
        return PPair(PReg(a.strip()), PReg(b.strip()))
    if tok.startswith("!%"):
        return PReg(tok[1:], neg=True)
    if tok.startswith("%"):
        name = tok[1:]
        base = name.split(".")[0]
        if base in ("tid", "ntid", "ctaid", "nctaid", "laneid", "warpid", "nwarpid", "smid",
                    "nsmid", "gridid", "clock", "clock64", "lanemask_eq", "lanemask_lt",
                    "lanemask_le", "lanemask_gt", "lanemask_ge", "globaltimer", "envreg"):
            return PSpecial(name)
        return PReg(tok)
    if _INT.match(tok):
        return PImm(int(tok.rstrip("U"), 0))
    if re.match(r"^0[fFdD][0-9a-fA-F]+$", tok):
        # a float constant's bit pattern; instructions with a float type are refused by the lowering
        return PImm(int(tok[2:], 16))
    if re.match(r"^[\w$.]+$", tok):
        return PSym(tok)
    raise QgpuError(f"cannot parse operand {tok!r}", file=filename, line=line)


def _split_top(s: str) -> list[str]:
    """Split on commas that are not inside brackets or braces."""
    out, depth, cur = [], 0, []
    for c in s:
        if c in "[{(":
            depth += 1
        elif c in "]})":
            depth -= 1
        if c == "," and depth == 0:
            out.append("".join(cur))
            cur = []
        else:
            cur.append(c)
    if "".join(cur).strip():
        out.append("".join(cur))
    return out


def _parse_instr(stmt: str, line: int, cuda_line: int | None, filename: str) -> PtxInstr:
    guard = None
    m = re.match(r"^@(!?)(%[\w$.]+)\s+", stmt)
    if m:
        guard = PReg(m.group(2), neg=bool(m.group(1)))
        stmt = stmt[m.end():]
    parts = stmt.split(None, 1)
    opcode = parts[0]
    if opcode.split(".")[0] == "call":
        # call (ret), name, (args): keep only the callee; calls are refused by the lowering
        callee = re.search(r"([A-Za-z_$][\w$.]*)\s*(?:,|$)", re.sub(r"\([^)]*\)", "", parts[1] if len(parts) > 1 else ""))
        return PtxInstr(opcode, [PSym(callee.group(1))] if callee else [], guard, line, cuda_line)
    operands = [_parse_operand(t, line, filename) for t in _split_top(parts[1])] if len(parts) > 1 else []
    return PtxInstr(opcode, operands, guard, line, cuda_line)
