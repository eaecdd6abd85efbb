"""The one configuration object every part of qgpu sizes itself from.

A bigger machine (8 lanes, 256 words) is a parameter change here, not a rewrite:
the kernel compiler, the interpreter and (later) the circuit compiler all read
their limits from a :class:`MachineConfig`.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field, fields, replace


@dataclass(frozen=True)
class BlockLimits:
    """What one machine block may contain: the work of one ``EXEC(b,w)`` forward pass.

    The circuit evaluates a block's instructions one after another inside a single
    forward pass (values forwarded through the residual stream), so the number of
    instructions bounds the circuit's depth; register results and memory writes go
    back out as VAL/MEM tokens after the pass, so their counts bound the tokens
    per EXEC.
    """

    max_instrs: int = 4
    """Straight-line instructions per block (the terminator is not counted). The circuit evaluates
    them one after another inside one forward pass, so this sets the circuit's depth: the seed's
    8 made the model 55 layers and 5.3 B parameters (``python benchmarks/model_size.py 8:48``)."""
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
    rom_blocks: int = 60
    """Program ROM size in blocks (a block's index is its PC). Shorter blocks need more of them: 60 fit
    every kernel of the tests with its divisions expanded (``tests/suite2/vm14.cu``,
    ``multi_switch.cu``: 57); the seed's machine had 32 blocks of 8 instructions. A lane's pc entry in
    the circuit (one value head) holds at most 61 blocks."""
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


    @property
    def name(self) -> str:
        """Short name, ``N:B`` (instructions per block : ROM blocks), with any other field that
        differs from the default spelled out: ``4:60``, ``3:32``, ``4:60 lanes=8``."""
        base = f"{self.block.max_instrs}:{self.rom_blocks}"
        extra = [f"{k}={v}" for k, v in _differences(self, MachineConfig()) if k not in ("block.max_instrs", "rom_blocks")]
        return " ".join([base, *extra])

    def describe(self) -> str:
        return f"machine {self.name} ({self.block.max_instrs} instructions per block, a {self.rom_blocks}-block ROM)"


def _differences(a: MachineConfig, b: MachineConfig) -> list[tuple[str, object]]:
    out = []
    for f in fields(MachineConfig):
        va, vb = getattr(a, f.name), getattr(b, f.name)
        if f.name == "block":
            out += [(f"block.{g.name}", getattr(va, g.name)) for g in fields(BlockLimits)
                    if getattr(va, g.name) != getattr(vb, g.name)]
        elif f.name != "max_steps" and va != vb:  # the runaway guard is a run option, not the machine
            out.append((f.name, va))
    return out


def same_machine(a: MachineConfig, b: MachineConfig) -> bool:
    """Whether a program compiled for ``a`` runs on ``b`` (everything but the runaway guard equal)."""
    return not _differences(a, b)


def machine_to_json(cfg: MachineConfig) -> dict:
    return asdict(cfg)


def machine_from_json(d: dict) -> MachineConfig:
    """Inverse of :func:`machine_to_json` (a checkpoint's ``qgpu_layout.json``, a replay file, a program)."""
    d = dict(d)
    d["block"] = BlockLimits(**d["block"])
    d["pipeline"] = tuple(d["pipeline"])
    return MachineConfig(**d)


def check_same_machine(compiled_for: MachineConfig | None, runs_on: MachineConfig, what: str = "the kernel") -> None:
    """Refuse a program compiled for another machine: its blocks were split for that machine's limits."""
    if compiled_for is not None and not same_machine(compiled_for, runs_on):
        from compiler.errors import LaunchError

        raise LaunchError(f"{what} was compiled for {compiled_for.describe()} but runs on "
                          f"{runs_on.describe()}: compile it again for this machine (--machine {runs_on.name}, or "
                          "--model DIR to take the checkpoint's)")


def parse_machine(text: str) -> MachineConfig:
    """``N:B`` or ``N`` (instructions per block, ROM blocks) -> the default machine with those two
    changed; the command-line form of ``--machine``."""
    n, _, b = text.strip().partition(":")
    try:
        instrs, blocks = int(n), int(b) if b else DEFAULT.rom_blocks
    except ValueError:
        raise ValueError(f"machine {text!r}: expected N:B (instructions per block : ROM blocks), e.g. "
                         f"{DEFAULT.name}") from None
    if instrs < 1 or blocks < 1:
        raise ValueError(f"machine {text!r}: both numbers must be at least 1")
    return replace(DEFAULT, rom_blocks=blocks, block=replace(DEFAULT.block, max_instrs=instrs))


DEFAULT = MachineConfig()
"""The one machine: the kernel compiler, the interpreter, the default checkpoint and the debugger all
use it unless told otherwise (``--machine N:B`` or ``--model DIR``)."""

SEED = replace(DEFAULT, rom_blocks=32, block=replace(DEFAULT.block, max_instrs=8))
"""The seed design's machine (8 instructions per block, a 32-block ROM), kept for comparison: its
circuit is too deep to build on the developers' 24 GiB machine (docs/machine.md)."""
