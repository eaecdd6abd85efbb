"""The GPU circuit: assembles the stages into one CircuitSpec (the single source of truth).

Stages, in pipeline order (docs/circuit.md has the full plan and what is missing):

* layer 0 — latch (``latch.py``): the address of the current record, the step's context;
* the execute slots (``execute.py``: ROM fetch, decode, register/constant/predicate ports,
  ALU, memory; ``guards.py``);
* the writeback (``writeback.py``): the terminator and the pc file, the step's records,
  the choice of the next ``EXEC``, the LM head.
"""

from __future__ import annotations

from compiler.circuit.checkpoint import CircuitSpec, check_head
from compiler.circuit.dims import DK, DV, HEADS_PER_KEY, MAX_ROM_BLOCKS
from compiler.circuit.latch import build_latch
from compiler.circuit.layers import LayerSpec
from compiler.circuit.alloc import allocate
from compiler.circuit.ports import layer_stages, verify
from compiler.circuit.protocol import Vocab
from compiler.circuit.execute import Schedule, SlotBuilder
from compiler.circuit.writeback import DEPTH as WRITEBACK_DEPTH, WritebackBuilder
from compiler.circuit.space import Space
from compiler.circuit.tokens import add_token_groups, all_embeddings
from compiler.machine.config import DEFAULT, MachineConfig


def build_spec(cfg: MachineConfig = DEFAULT, pad_pow4: bool = False) -> CircuitSpec:
    if cfg.rom_blocks > MAX_ROM_BLOCKS:
        raise ValueError(f"a {cfg.rom_blocks}-block ROM does not fit the circuit's pc entries "
                         f"(at most {MAX_ROM_BLOCKS} blocks)")
    vocab = Vocab(cfg)
    space = Space("residual")
    add_token_groups(space, cfg.lanes, cfg.rom_blocks)
    latch = build_latch(space, 0)
    sched = Schedule(slots=cfg.block.max_instrs)
    layers = [latch] + [LayerSpec(i, "execute", "") for i in range(1, sched.end + WRITEBACK_DEPTH)]  # stage: below
    slots = SlotBuilder(space, layers, cfg, sched)
    slots.build()
    wb = WritebackBuilder(space, layers, cfg, sched, slots)
    wb.build()
    for L in layers:
        for kh in L.heads:
            check_head(L, kh, HEADS_PER_KEY, DK, DV)
        if L.heads:  # <bos> empties every state (checkpoint._fill_mixer's decay)
            L.reads.append("tok.kind")
    for L in layers[1:]:
        L.doc = L.doc or "; ".join(dict.fromkeys(h.name.split(".")[0] for h in L.heads)) or "MLP only"
    verify(layers, space)  # every layer touches only the groups its units declare (ports.py)
    for L in layers:  # the stages a layer works for, from the groups it computes (one source: ports.py)
        L.stage = "+".join(layer_stages(L, space))
    spec = CircuitSpec(space=space, anchor=space["anchor"].start, vocab=vocab.words,
                       embed=all_embeddings(space, vocab), unembed=wb.unembed(vocab), layers=layers, dk=DK, dv=DV,
                       heads_per_key=HEADS_PER_KEY, pad_pow4=pad_pow4, meta={"machine": cfg.__class__.__name__})
    allocate(spec)  # groups whose lives do not overlap share channels (alloc.py)
    return spec


def unsupported(program, launch) -> list[str]:
    """What in this launch the circuit does not implement yet (empty: it should run exactly).
    The model still runs such launches; ``--check-replay`` shows where it departs."""
    from compiler.circuit.execute import OPS
    from compiler.machine.isa import Barrier, Branch, Exit, Jump

    missing: list[str] = []
    ops = {i.op.value + (f".{i.mod}" if i.mod else "") for b in program.blocks for i in b.instrs}
    missing += [f"op {o}" for o in sorted(ops - set(OPS))]
    if any(i.guard is not None and i.dst2 is not None for b in program.blocks for i in b.instrs):
        missing.append("guarded instructions with two destinations")
    if any(i.guard is not None and i.op.value in ("shfl", "vote") for b in program.blocks for i in b.instrs):
        missing.append("guarded shuffles and votes")
    if not all(isinstance(b.term, (Jump, Branch, Exit, Barrier)) for b in program.blocks):
        missing.append("terminators")
    return missing
