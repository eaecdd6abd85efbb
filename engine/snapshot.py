"""Exact, compact snapshots of a transformers cache, for the debugger's reverse stepping.

Whatever the cache holds is copied: the DeltaNet layers' recurrent and conv states, the
(all-zero) attention layers' keys and values, and every flag and size beside them, so a
restored cache continues exactly like the original (the same forward pass on the same token
gives the same state, bit for bit; ``tests/test_debug_model.py`` checks it).

The GPU's state is sparse (a few percent of the entries are non-zero: most rows of the ROM,
register and memory heads are never written), so each tensor is stored as the positions and
raw bit patterns of its non-zero entries. The bit patterns are compared as integers, so a
``-0.0`` is kept as ``-0.0``. A snapshot of the 3-instruction machine is about 1-2 MB instead
of 22 MB dense.
"""

from __future__ import annotations

import copy
from dataclasses import dataclass
from typing import Any

import torch

_INT_VIEW = {1: torch.int8, 2: torch.int16, 4: torch.int32, 8: torch.int64}


@dataclass(frozen=True)
class PackedTensor:
    """The non-zero entries of one tensor: flat positions and raw bits."""

    shape: tuple[int, ...]
    dtype: torch.dtype
    index: torch.Tensor
    bits: torch.Tensor

    @staticmethod
    def pack(t: torch.Tensor) -> "PackedTensor":
        flat = t.detach().contiguous().reshape(-1)
        bits = flat.view(_INT_VIEW[flat.element_size()])
        index = torch.nonzero(bits, as_tuple=True)[0]
        return PackedTensor(tuple(t.shape), t.dtype, index, bits[index].clone())

    def unpack(self) -> torch.Tensor:
        n = 1
        for d in self.shape:
            n *= d
        bits = torch.zeros(n, dtype=_INT_VIEW[torch.empty((), dtype=self.dtype).element_size()])
        bits[self.index] = self.bits
        return bits.view(self.dtype).reshape(self.shape)

    @property
    def nbytes(self) -> int:
        return self.index.numel() * self.index.element_size() + self.bits.numel() * self.bits.element_size()


@dataclass(frozen=True)
class _Obj:
    """An object (a cache or one of its layers) with its attributes frozen."""

    cls: type
    attrs: dict[str, Any]


def _freeze(x: Any) -> Any:
    if isinstance(x, torch.Tensor):
        return PackedTensor.pack(x)
    if isinstance(x, dict):
        return {k: _freeze(v) for k, v in x.items()}
    if isinstance(x, list):
        return [_freeze(v) for v in x]
    if isinstance(x, tuple):
        return tuple(_freeze(v) for v in x)
    if type(x).__module__.startswith(("transformers.cache_utils", "engine.fast")) and hasattr(x, "__dict__"):
        return _Obj(type(x), {k: _freeze(v) for k, v in vars(x).items()})
    return copy.deepcopy(x)


def _thaw(x: Any) -> Any:
    if isinstance(x, PackedTensor):
        return x.unpack()
    if isinstance(x, dict):
        return {k: _thaw(v) for k, v in x.items()}
    if isinstance(x, list):
        return [_thaw(v) for v in x]
    if isinstance(x, tuple):
        return tuple(_thaw(v) for v in x)
    if isinstance(x, _Obj):
        obj = x.cls.__new__(x.cls)
        obj.__dict__.update({k: _thaw(v) for k, v in x.attrs.items()})
        return obj
    return copy.deepcopy(x)


def _size(x: Any) -> int:
    if isinstance(x, PackedTensor):
        return x.nbytes
    if isinstance(x, dict):
        return sum(_size(v) for v in x.values())
    if isinstance(x, (list, tuple)):
        return sum(_size(v) for v in x)
    if isinstance(x, _Obj):
        return _size(x.attrs)
    return 0


@dataclass(frozen=True)
class CacheSnapshot:
    frozen: _Obj
    nbytes: int

    def restore(self) -> Any:
        """A new cache object equal to the one captured (the snapshot stays usable)."""
        return _thaw(self.frozen)


def capture(cache: Any) -> CacheSnapshot:
    """Freeze a ``DynamicCache`` (or any transformers cache object) or an ``engine.fast.FastCache``."""
    frozen = _freeze(cache)
    if not isinstance(frozen, _Obj):
        raise TypeError(f"not a transformers or fast-engine cache: {type(cache).__name__}")
    return CacheSnapshot(frozen, _size(frozen))
