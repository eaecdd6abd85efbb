"""Build the GPU checkpoint: ``qgpu build`` and the engine's first use call this.

The checkpoint directory holds a stock Qwen3.5 model (``config.json``, ``model-*.safetensors``),
its word-level tokenizer, and ``qgpu_layout.json``: the machine it implements, where each
state structure lives (layer, head) so the engine can decode it, and the residual
allocation. Checkpoints are cached under ``$QGPU_MODELS`` (default ``~/.cache/qgpu/models``)
by a fingerprint of the circuit compiler's source and the machine configuration, so a
changed circuit is rebuilt and an unchanged one is reused.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
import os
from pathlib import Path
from typing import Callable

from compiler.machine.config import DEFAULT, MachineConfig, machine_to_json

LAYOUT = "qgpu_layout.json"


def fingerprint(cfg: MachineConfig) -> str:
    h = hashlib.sha256()
    for f in sorted((Path(__file__).parent).glob("*.py")):
        h.update(f.read_bytes())
    h.update(json.dumps(dataclasses.asdict(cfg), sort_keys=True).encode())
    return h.hexdigest()[:16]


def models_dir() -> Path:
    return Path(os.environ.get("QGPU_MODELS") or Path.home() / ".cache" / "qgpu" / "models")


def default_model_dir(cfg: MachineConfig = DEFAULT) -> Path:
    return models_dir() / f"gpu-{fingerprint(cfg)}"


def state_map(spec, sched) -> dict:
    """Where the engine finds each structure: (layer, key head index) of one copy."""
    def find(layer: int, name: str) -> dict:
        heads = [h.name for h in spec.layers[layer].heads]
        return {"layer": layer, "head": spec.key_starts(layer)[heads.index(name)]}  # physical key head

    from compiler.circuit.protocol import TERM_SLOT
    from compiler.circuit.writeback import TERM_LAYER

    rom = [dict(find(sched.fetch(s), f"rom.{s}"), slot=s) for s in range(sched.slots)]
    rom.append(dict(find(TERM_LAYER, f"rom.{TERM_SLOT}"), slot=TERM_SLOT))
    return {"registers": find(sched.mux(0) - 1, "regs.0.a"),
            "predicates": find(sched.mux(0) + 1, "preds.0"),
            "memory": find(sched.mux(0) + 5, "mem.0.0"),
            "rom": rom,
            "pcs": [find(sched.end, name) for name in sorted(h.name for h in spec.layers[sched.end].heads
                                                             if h.name.startswith("pcs."))],
            "tags": [find(sched.end - 1, name) for name in sorted(h.name for h in spec.layers[sched.end - 1].heads
                                                                  if h.name.startswith("tags."))],
            "parity": find(sched.end - 2, "barR"),
            "heads_per_key": spec.placed.m,
            "copies": copies(spec)}


def copies(spec) -> dict:
    """Every copy of the register file (``regs.S.P``: slot S's port P; value heads ``2·lane`` and
    ``2·lane + 1``, short and long) and of memory (``mem.S.K``: value heads 0 and 1): a change of
    a register or memory word as the machine sees it (a fault injected by ``engine/faults.py``)
    must land in every copy."""
    out: dict[str, list[dict]] = {"registers": [], "memory": []}
    for L in spec.layers:
        for name, start in zip((h.name for h in L.heads), spec.key_starts(L.index)):
            parts = name.split(".")
            if parts[0] == "regs" and len(parts) == 3:
                out["registers"].append({"layer": L.index, "head": start, "name": name})
            elif parts[0] == "mem" and len(parts) == 3:
                out["memory"].append({"layer": L.index, "head": start, "name": name})
    return out


def build_checkpoint(out: str | Path | None = None, cfg: MachineConfig = DEFAULT,
                     progress: Callable[[str], None] = lambda msg: None, spec=None) -> Path:
    """Write the checkpoint (atomically: a half-written directory is never left under ``out``).
    ``spec``: the circuit of ``cfg`` if the caller built it already (``gpu.build_spec(cfg)``)."""
    from compiler.atomic import atomic_dir
    from compiler.circuit.checkpoint import save_checkpoint
    from compiler.circuit.execute import Schedule
    from compiler.circuit.gpu import build_spec

    out = Path(out) if out else default_model_dir(cfg)
    progress("computing the circuit")
    spec = spec or build_spec(cfg)
    spec.meta = {"machine": machine_to_json(cfg), "fingerprint": fingerprint(cfg),
                 "state": state_map(spec, Schedule(slots=cfg.block.max_instrs))}
    with atomic_dir(out) as tmp:
        progress(f"writing weights ({len(spec.layer_types())} layers, hidden {spec.hidden})")
        save_checkpoint(spec, tmp)
    progress(f"wrote {out}")
    return out


def ensure_checkpoint(path: str | Path | None, cfg: MachineConfig = DEFAULT,
                      progress: Callable[[str], None] = lambda msg: None) -> Path:
    """The checkpoint to use: ``path`` if given, else the cached default (built on first use)."""
    if path:
        p = Path(path)
        if not (p / LAYOUT).exists():
            from compiler.errors import LaunchError
            raise LaunchError(f"{p} is not a qgpu checkpoint (no {LAYOUT}); build one with 'qgpu build --out {p}'")
        return p
    p = default_model_dir(cfg)
    if not (p / LAYOUT).exists():
        progress(f"no GPU checkpoint yet: building it in {p} (once)")
        build_checkpoint(p, cfg, progress)
    return p
