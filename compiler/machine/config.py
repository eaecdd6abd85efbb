"""The one configuration object every part of qgpu sizes itself from.

A bigger machine (8 lanes, 256 words) is a parameter change here, not a rewrite:
the kernel compiler, the interpreter and (later) the circuit compiler all read
their limits from a :class:`MachineConfig`.
"""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(frozen=True)
class BlockLimits:
    """What one machine block may contain: the work of one ``EXEC(b,w)`` forward pass.

    The circuit evaluates a block's instructions one after another inside a single
    forward pass (values forwarded through the residual stream), so the number of
    instructions bounds the circuit's depth; register results and memory writes go
    back out as VAL/MEM tokens after the pass, so their counts bound the tokens
    per EXEC.
    """

    max_instrs: int = 8
    """Straight-line instructions per block (the terminator is not counted)."""
    max_reg_writes: int = 4
    """Registers (general + predicate) a block writes *and* leaves live for later blocks:
    each goes back as VAL tokens. Temporaries used up inside the block are free."""
    max_mem_ops: int = 3
    """Loads + stores + atomics per block (memory read heads and MEM token groups)."""
    max_stores: int = 2
    """Stores + atomics per block. Memory is read at one depth of the pass and
    written only by the MEM tokens after it, so a block never loads after it stored,
    and never loads from an address computed from a load of the same block."""
    max_atomics: int = 1
    """Atomics per block: an atomic reads and writes one word for each lane in turn."""
    mul_latency: int = 2
    """Slots from a ``mul``/``mulhi``, a ``shfl`` or a guarded instruction to the first instruction
    of the same block that may read its register result (the circuit's multiplier, its shuffle,
    and the merge of a guarded result with the old value, are deeper than one slot); the compiler fills a gap
    with ``mov r0, r0``, which does nothing."""


@dataclass(frozen=True)
class MachineConfig:
    lanes: int = 4
    """Lanes per warp (SIMT width)."""
    max_warps: int = 4
    """Warps per launch, over all CTAs together."""
    regs: int = 16
    """Register rows per lane; r0 always reads 0, so ``regs - 1`` are allocatable."""
    preds: int = 4
    """Predicate registers per lane (p0 .. p{preds-1})."""
    rom_blocks: int = 32
    """Program ROM size in blocks (a block's index is its PC)."""
    mem_words: int = 126
    """Words of 32-bit memory: global arrays, every CTA's shared memory, every thread's local memory."""
    word_bits: int = 32
    """Bits per register and memory word (int32, two's complement)."""
    max_steps: int = 200_000
    """EXEC steps after which a launch is stopped as a runaway (interpreter guard; about
    20 s of interpreter time on the developers' CPU)."""
    block: BlockLimits = field(default_factory=BlockLimits)
    pipeline: tuple[str, ...] = ("fetch", "decode", "execute", "writeback")
    """The four pipeline stages of one EXEC pass; see docs/machine.md."""

    @property
    def usable_regs(self) -> int:
        return self.regs - 1

    @property
    def max_threads(self) -> int:
        return self.lanes * self.max_warps

    @property
    def word_mask(self) -> int:
        return (1 << self.word_bits) - 1


DEFAULT = MachineConfig()
