"""The fast engine's one-token step in C (engine/fast_step.c), loaded with ctypes.

A one-token forward pass of the torch path costs ~2,000 small torch operations (~60 per DeltaNet
layer), each a few microseconds of dispatch: on a 2-core CPU that overhead, not arithmetic, set
the time per generated token. ``fast_step.c`` runs a whole DeltaNet layer or MLP of a one-token
step in one call over the same compacted weights, rounding where the torch path rounds. It is
compiled on first use with the system's C compiler (``cc``, override with ``$CC``) into
``compact_cache_dir()/native/`` (keyed by the source and the compiler's version) — plain C, no
Python headers, so no new package is needed. Where no compiler works, or ``QGPU_NATIVE=0``, the
engine keeps its torch path (``FastModel.native`` says which runs); both are tested against stock
``transformers`` (tests/test_fast_engine.py).
"""

from __future__ import annotations

import ctypes
import hashlib
import os
import shutil
import subprocess
import tempfile
from pathlib import Path

import torch

SOURCE = Path(__file__).with_name("fast_step.c")
FLAGS = ["-O3", "-march=native", "-ffp-contract=off", "-fno-math-errno", "-fPIC", "-shared"]
"""-ffp-contract=off: no fused multiply-adds (torch rounds every product); no -ffast-math."""


class Csc(ctypes.Structure):
    _fields_ = [("rows", ctypes.c_int32), ("cols", ctypes.c_int32), ("colptr", ctypes.c_void_p),
                ("row", ctypes.c_void_p), ("val", ctypes.c_void_p)]


class DeltaNetParams(ctypes.Structure):
    _fields_ = [("bf16", ctypes.c_int32), ("hidden", ctypes.c_int32), ("eps", ctypes.c_float),
                ("norm", ctypes.c_void_p), ("proj", Csc), ("K", ctypes.c_int32), ("C", ctypes.c_int32),
                ("conv", ctypes.c_void_p), ("H", ctypes.c_int32), ("nk", ctypes.c_int32), ("dk", ctypes.c_int32),
                ("dv", ctypes.c_int32), ("key_of", ctypes.c_void_p), ("qdiv", ctypes.c_float),
                ("dv_full", ctypes.c_float), ("head_eps", ctypes.c_float), ("neg_rate", ctypes.c_void_p),
                ("dt_bias", ctypes.c_void_p), ("no_decay", ctypes.c_int32), ("norm_w", ctypes.c_void_p),
                ("out", Csc)]


class MlpParams(ctypes.Structure):
    _fields_ = [("bf16", ctypes.c_int32), ("hidden", ctypes.c_int32), ("eps", ctypes.c_float),
                ("norm", ctypes.c_void_p), ("gate_up", Csc), ("n", ctypes.c_int32), ("down", Csc)]


_LIB: ctypes.CDLL | None | bool = False  # False: not tried yet; None: unavailable
_WHY = ""


def library() -> ctypes.CDLL | None:
    """The compiled step library, or None (and :func:`why_not` says why) where it cannot be built or
    ``QGPU_NATIVE=0``."""
    global _LIB, _WHY
    if os.environ.get("QGPU_NATIVE", "1") == "0":
        _WHY = "QGPU_NATIVE=0"
        return None
    if _LIB is False:
        try:
            _LIB = _load()
        except OSError as e:  # no compiler, a failed build, a library that does not load
            _LIB, _WHY = None, f"no C step library ({e})"
    return _LIB


def why_not() -> str:
    return _WHY


def _load() -> ctypes.CDLL:
    from engine.fast import compact_cache_dir

    cc = os.environ.get("CC") or shutil.which("cc") or shutil.which("gcc")
    if not cc:
        raise FileNotFoundError("no C compiler (cc or gcc) on PATH")
    version = subprocess.run([cc, "--version"], capture_output=True, text=True).stdout  # part of the key
    key = hashlib.sha256(SOURCE.read_bytes() + version.encode() + " ".join(FLAGS).encode()).hexdigest()[:16]
    out = compact_cache_dir() / "native" / f"fast_step-{key}.so"
    if not out.exists():
        out.parent.mkdir(parents=True, exist_ok=True)
        with tempfile.TemporaryDirectory(dir=out.parent) as tmp:
            tmp_so = Path(tmp) / out.name
            r = subprocess.run([cc, *FLAGS, "-o", str(tmp_so), str(SOURCE), "-lm"], capture_output=True, text=True)
            if r.returncode:
                raise OSError(f"{cc} failed on {SOURCE}: {r.stderr.strip()[-800:]}")
            os.replace(tmp_so, out)  # atomic: another process may be building the same file
    lib = ctypes.CDLL(str(out))
    ptr = ctypes.c_void_p
    lib.deltanet_step.argtypes = [ctypes.POINTER(DeltaNetParams), ptr, ctypes.c_int32, ptr, ptr, ptr]
    lib.deltanet_step.restype = None
    lib.mlp_step.argtypes = [ctypes.POINTER(MlpParams), ptr, ctypes.c_int32, ptr]
    lib.mlp_step.restype = None
    return lib


def _ptr(t: torch.Tensor, keep: list) -> int:
    assert t.is_contiguous() and t.device.type == "cpu"
    keep.append(t)
    return t.data_ptr()


def _csc(m, keep: list) -> Csc:
    """A SparseMatrix by columns (the C step skips the columns whose input is 0)."""
    return Csc(m.shape[0], m.shape[1], *(_ptr(t, keep) for t in m.columns()))


class Step:
    """The C parameters of one layer's one-token step (pointers into FastModel's tensors, which
    ``keep`` holds alive) and the scratch it needs."""

    def __init__(self, params: ctypes.Structure, keep: list, scratch: int):
        self.params, self.keep, self.scratch = params, keep, scratch
        self.ref = ctypes.byref(params)


def deltanet(m, norm, hidden: int, bf16: bool) -> Step:
    keep: list = []
    f = lambda t: _ptr(t.detach().float().contiguous(), keep)  # noqa: E731
    K, C = m.conv.shape
    H, dk, dv = len(m.heads), len(m.kch), len(m.vch)
    p = DeltaNetParams(int(bf16), hidden, norm.eps, f(norm.scale), _csc(m.proj, keep), K, C, f(m.conv), H, m.n_key,
                       dk, dv, _ptr(m.key_of.to(torch.int64).contiguous(), keep), float(m.dk ** 0.5), float(m.dv),
                       m.eps, f(m.neg_rate), f(m.dt_bias), int(m.no_decay), f(m.norm_w), _csc(m.out, keep))
    return Step(p, keep, 2 * hidden + m.proj.shape[0] + 2 * C + H * dv + 2 * dv + 2 * dk + 16)


def mlp(m, norm, hidden: int, bf16: bool) -> Step:
    keep: list = []
    p = MlpParams(int(bf16), hidden, norm.eps, _ptr(norm.scale.float().contiguous(), keep), _csc(m.gate_up, keep),
                  m.n, _csc(m.down, keep))
    return Step(p, keep, 2 * hidden + 3 * m.n + 16)
