"""Replay files: a recorded debugging session, replayed without a model (docs/debugger.md).

Format ``qgpu-replay`` version 2: gzip-compressed JSON lines (plain, uncompressed JSON lines
are read too). Version 2 holds tokens of the lane-parallel protocol (``R.r`` then lane values
``S.l.x`` / ``B0.l.x``); version 1 files hold per-lane ``R.l.r`` records and are refused.

1. header ``{"format": "qgpu-replay", "version": 2, "kernel", "source_name", "source", "ptx",
   "program" (qgpu compile --json form), "cuda_line_of", "launch": {"grid", "block", "args"},
   "machine", "model": {"name", "dtype", "fingerprint"}, "layout" (the checkpoint's
   qgpu_layout.json: layer table and state map), "prompt": [tokens]}``;
2. ``{"rom": [[block, slot, {field: byte}], ...]}`` — the ROM rows decoded from the model's
   state after the prompt pass;
3. one line per generated token, in order: ``{"n": index from 0, "token", "margin" (logit of
   the chosen token minus the runner-up), "state"}``, the state decoded after that pass
   (``MachineState.to_json``: every word ``[value, margin]`` or null when never written);
4. ``{"end": true, "tokens": count, "sha256": hex digest of every line before this one}``.

A file without its end record is truncated; a line that does not parse, a count or digest
that does not match, is corrupt; another version is refused with both versions named.
"""

from __future__ import annotations

import dataclasses
import gzip
import hashlib
import json
import threading
import zlib
from dataclasses import dataclass
from pathlib import Path

from compiler.errors import QgpuError
from compiler.program_io import program_from_json, program_to_json

from app.debugger.session import Kernel
from app.debugger.state import UNWRITTEN, MachineState

FORMAT = "qgpu-replay"
VERSION = 2
MAX_BYTES = 1 << 30
"""The largest replay file read, uncompressed (a recorded token takes about 2 KB: a launch of
``session.MAX_TOKENS`` tokens about 400 MB); a larger file is refused before it fills memory."""


class ReplayError(QgpuError):
    """A replay file that cannot be read (missing, truncated, corrupt, another version)."""


@dataclass
class Recording:
    name: str
    header: dict
    kernel: Kernel
    prompt: list[str]
    tokens: list[str]
    margins: list[float]
    states: list[MachineState]
    rom: dict[tuple[int, int], dict[str, int]]
    layout: dict | None

    @property
    def empty_state(self) -> MachineState:
        k = self.kernel
        cfg = k.cfg
        return MachineState({w: [[UNWRITTEN] * cfg.regs for _ in range(cfg.lanes)] for w in range(k.warps)},
                            {w: [[UNWRITTEN] * cfg.preds for _ in range(cfg.lanes)] for w in range(k.warps)},
                            {w: [UNWRITTEN] * cfg.lanes for w in range(k.warps)}, [UNWRITTEN] * cfg.mem_words)


# --- writing ----------------------------------------------------------------------------------
def header_for(session, model=None) -> dict:
    k = session.kernel
    p = k.program
    hdr = {"format": FORMAT, "version": VERSION, "kernel": p.kernel, "source_name": k.name,
           "source": p.source, "ptx": p.ptx, "program": program_to_json(p),
           "cuda_line_of": {str(a): b for a, b in sorted(p.cuda_line_of.items())},
           "launch": {"grid": k.grid, "block": k.block, "args": k.args},
           "machine": dataclasses.asdict(k.cfg), "prompt": list(session.backend.prompt)}
    if model is not None:
        hdr["model"] = {"name": model.path.name, "dtype": model.dtype,
                        "fingerprint": model.layout.get("fingerprint")}
        hdr["layout"] = {key: model.layout[key] for key in ("layers", "state") if key in model.layout}
    return hdr


class Recorder:
    """Writes the session's tokens and decoded states as they are first generated."""

    def __init__(self, path: str | Path, model=None):
        self.path = Path(path)
        self.model = model
        self._f = None
        self._sha = hashlib.sha256()
        self._count = 0
        self.restarted = 0
        self._lock = threading.Lock()
        self.closed = False

    def _line(self, obj: dict) -> None:
        data = (json.dumps(obj, separators=(",", ":")) + "\n").encode()
        self._sha.update(data)
        self._f.write(data)

    def begin(self, session) -> None:
        """Start the file (again, after a reload: it holds the latest launch)."""
        if self._f is not None:
            self._f.close()
            self.restarted += 1
        self._f = gzip.open(self.path, "wb")
        self._sha = hashlib.sha256()
        self._count = 0
        self._session = session
        self._line(header_for(session, self.model))

    def add(self, n: int, token: str, margin: float, state: MachineState) -> None:
        with self._lock:
            if not self.closed:
                self._add(n, token, margin, state)

    def _add(self, n: int, token: str, margin: float, state: MachineState) -> None:
        if n != self._count:
            raise AssertionError(f"recorder: token {n} after {self._count}")
        if n == 0:
            rom = self._session.backend.rom()
            self._line({"rom": [[b, s, f] for (b, s), f in sorted(rom.items())]})
        self._line({"n": n, "token": token, "margin": round(margin, 4), "state": state.to_json()})
        self._count += 1

    def close(self) -> None:
        with self._lock:
            self._close()

    def _close(self) -> None:
        self.closed = True
        if self._f is None:
            return
        self._f.write((json.dumps({"end": True, "tokens": self._count, "sha256": self._sha.hexdigest()}) + "\n").encode())
        self._f.close()
        self._f = None

    @property
    def tokens(self) -> int:
        return self._count


# --- reading ----------------------------------------------------------------------------------
def load(path: str | Path) -> Recording:
    p = Path(path)
    where = str(path)

    def bad(msg: str) -> ReplayError:
        return ReplayError(msg, file=where)

    too_big = (f"replay file larger than {MAX_BYTES >> 20} MB uncompressed: not one qgpu-debug wrote "
               f"(a recorded token takes about 2 KB)")
    try:
        if p.stat().st_size > MAX_BYTES:
            raise bad(too_big)
        raw = p.read_bytes()
    except FileNotFoundError:
        raise bad("no such file") from None
    except OSError as e:
        raise bad(f"cannot read the file: {e.strerror}") from None
    if raw[:2] == b"\x1f\x8b":
        try:  # a small file that inflates beyond the limit is refused before it is inflated whole
            if len(zlib.decompressobj(zlib.MAX_WBITS | 16).decompress(raw, MAX_BYTES + 1)) > MAX_BYTES:
                raise bad(too_big)
        except zlib.error:
            pass  # reported below, with gzip's own words
        try:
            raw = gzip.decompress(raw)
        except EOFError:
            raise bad("truncated replay file: the compressed data ends early (was the recording cut short?)") from None
        except (gzip.BadGzipFile, zlib.error, OSError) as e:
            raise bad(f"corrupt replay file: {e}") from None
    try:
        text = raw.decode()
    except UnicodeDecodeError:
        raise bad("not a qgpu replay file (neither gzip nor text)") from None
    lines = text.split("\n")
    if not lines[0].strip():
        raise bad("empty replay file")
    try:
        hdr = json.loads(lines[0])
    except json.JSONDecodeError:
        raise bad("not a qgpu replay file (its first line is not a JSON header)") from None
    if not isinstance(hdr, dict) or hdr.get("format") != FORMAT:
        raise bad(f"not a qgpu replay file (no \"format\": \"{FORMAT}\" header)")
    if hdr.get("version") != VERSION:
        raise bad(f"replay format version {hdr.get('version')!r}; this qgpu-debug reads version {VERSION} "
                  "(record the session again with this version)")
    sha = hashlib.sha256((lines[0] + "\n").encode())
    tokens: list[str] = []
    margins: list[float] = []
    states: list[MachineState] = []
    rom: dict = {}
    end = None
    for ln, line in enumerate(lines[1:], 2):
        if end is not None:
            if line.strip():
                raise bad(f"corrupt replay file: line {ln} after the end record")
            continue
        if not line:
            continue
        try:
            rec = json.loads(line)
        except json.JSONDecodeError as e:
            if ln == len(lines) and not text.endswith("\n"):
                raise bad(f"truncated replay file: line {ln} is cut off after token {len(tokens) - 1}") from None
            raise bad(f"corrupt replay file: line {ln} is not JSON ({e.msg})") from None
        if not isinstance(rec, dict):
            raise bad(f"corrupt replay file: line {ln} is not a record")
        if rec.get("end") is True:
            end = rec
            continue
        sha.update((line + "\n").encode())
        try:
            if "rom" in rec:
                rom = {(int(b), int(s)): {str(k): int(v) for k, v in f.items()} for b, s, f in rec["rom"]}
                continue
            if rec["n"] != len(tokens):
                raise bad(f"corrupt replay file: line {ln} holds token {rec['n']}, expected {len(tokens)}")
            tokens.append(str(rec["token"]))
            margins.append(float(rec["margin"]))
            states.append(MachineState.from_json(rec["state"]))
        except ReplayError:
            raise
        except (KeyError, TypeError, ValueError, AttributeError) as e:
            raise bad(f"corrupt replay file: line {ln}: a record without {e}") from None
    if end is None:
        raise bad(f"truncated replay file: it ends after token {len(tokens) - 1} without its end record "
                  "(the recording was cut short)")
    if end.get("tokens") != len(tokens):
        raise bad(f"corrupt replay file: the end record counts {end.get('tokens')} tokens, the file holds {len(tokens)}")
    if end.get("sha256") != sha.hexdigest():
        raise bad("corrupt replay file: its checksum does not match (the file was changed after recording)")
    try:
        kernel = _kernel(hdr)
    except QgpuError as e:
        raise bad(f"corrupt replay file: its launch does not build: {e.message}") from None
    except (KeyError, TypeError, ValueError) as e:
        raise bad(f"corrupt replay file: bad header ({type(e).__name__}: {e})") from None
    return Recording(p.name, hdr, kernel, list(hdr.get("prompt", [])), tokens, margins, states, rom,
                     hdr.get("layout"))


def _kernel(hdr: dict) -> Kernel:
    from compiler.machine.config import machine_from_json
    from engine.launch import build_launch

    cfg = machine_from_json(hdr["machine"])
    prog = program_from_json(hdr["program"])
    prog.machine = prog.machine or cfg  # files written before programs carried their machine
    prog.source, prog.ptx = hdr.get("source", ""), hdr.get("ptx", "")
    prog.cuda_line_of = {int(a): int(b) for a, b in hdr.get("cuda_line_of", {}).items()}
    L = hdr["launch"]
    launch = build_launch(prog, int(L["grid"]), int(L["block"]), dict(L["args"]), cfg)
    return Kernel(prog, launch, cfg, hdr.get("source_name", "kernel.cu"), dict(L["args"]), int(L["grid"]),
                  int(L["block"]))


