"""Fault injection: change a register of a lane, a memory word or a field of the ROM *in the model's
state*, as the machine sees it, before a given EXEC step — and, for registers and memory, the same
change in the interpreter (a ROM field has no counterpart there: the interpreter runs the program, not
its ROM image, so a ROM fault is judged against the fault-free interpreter only). Or silence one
unit of the network — an MLP neuron or an attention / DeltaNet head of a layer — from an EXEC step
on: its output columns of the layer's down / output projection read as zeros (both engines,
``silence`` in engine/model.py and engine/fast.py), judged against the fault-free interpreter too.

Used by ``qgpu run --backend model --inject SPEC`` (docs/debugger.md, "Fault injection") and by
tests/test_faults.py. The fault is written as a clean codeword (the value's 32 bit pairs) into every
copy of the structure the circuit keeps (``qgpu_layout.json``: ``state.copies``), so the model reads
the new value wherever it reads that register or word; ``--check-replay`` then flags the first token
where the launch departs from the fault-free interpreter, and a fault whose value is never read again
leaves every token unchanged. This module writes state only when asked, between forward passes; it
computes nothing the circuit should.

SPEC::

    TARGET [OP] @STEP
    TARGET  rN@wW.lL   register N (1..15) of lane L of warp W
            mem[A]     memory word A
            NAME[I]    element I of the kernel's array argument NAME
            rom[B.S].F field F (op, guard, dst, dst2, a, b, c, d, imm0..imm3, jmm0..jmm3: one byte
                       each, compiler/circuit/protocol.py FIELDS) of slot S of ROM block B; S = t is
                       the terminator slot
            LN.nK      silence MLP neuron K of decoder layer N (model.layers.N, from 0) from STEP on
            LN.hK      silence head K of layer N (a DeltaNet value head, or an attention head)
    OP      ^B         flip bit B (0..31; 0..7 for a ROM field); the default is ^0
            =V         set the value V (decimal or 0x..., negative allowed; 0..255 for a ROM field)
                       (a silenced neuron or head takes no OP)
    STEP    the EXEC step (numbered from 0, as ``qgpu run --trace`` shows them) before which the
            fault lands: the state the model reads when that step's EXEC token is fed

Examples: ``r4@w0.l2^3@5``, ``out[1]=7@12``, ``mem[40]^31@0``, ``rom[0.1].op^2@0``, ``L20.n117@3``,
``L7.h2@0``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from compiler.circuit.protocol import is_exec
from compiler.errors import LaunchError
from compiler.machine.config import MachineConfig
from engine.targets import PATTERN, resolve

ROM_PATTERN = r"rom\[(?P<block>\d+)\.(?P<slot>\d+|t)\]\.(?P<field>\w+)"
UNIT_PATTERN = r"L(?P<layer>\d+)\.(?P<unit>[nh])(?P<unit_index>\d+)"
UNITS = {"n": "neuron", "h": "head"}
"""A silenced unit's SPEC letter -> its Fault kind (and the executors' ``silence`` kind)."""
_SPEC = re.compile(r"^\s*(?:" + ROM_PATTERN + "|" + UNIT_PATTERN + "|" + PATTERN + r""")\s*(?:\^(?P<bit>\d+)|=(?P<value>-?(?:0x[0-9a-fA-F]+|\d+)))?
                       \s*@\s*(?P<step>\d+)\s*$""", re.X)

HELP = ("a fault SPEC is TARGET [OP] @STEP: TARGET = rN@wW.lL (register N of lane L of warp W), mem[A] "
        "(memory word A), NAME[I] (element I of array argument NAME), rom[B.S].FIELD (a field of slot S, "
        "t = terminator, of ROM block B), LN.nK or LN.hK (silence neuron K or head K of layer N from STEP on, "
        "no OP); OP = ^B (flip bit B, the default ^0) or =V (set V); STEP = the EXEC step before which it "
        "lands, e.g. r4@w0.l2^3@5, out[1]=7@12, rom[0.1].op^2@0 or L20.n117@3")


@dataclass(frozen=True)
class Fault:
    kind: str
    """``reg``, ``mem``, ``rom``, or a silenced unit: ``neuron`` or ``head``."""
    step: int
    warp: int = 0
    lane: int = 0
    reg: int = 0
    addr: int = 0
    bit: int | None = None
    value: int | None = None
    text: str = ""
    block: int = 0
    slot: int = 0
    field: str = ""
    """A ROM fault's block, slot (``protocol.TERM_SLOT`` for the terminator) and field."""
    layer: int = 0
    unit: int = 0
    """A silenced unit's decoder layer and its index there (neuron or head)."""

    @property
    def silences(self) -> bool:
        """A unit of the network silenced (a weight edit) rather than a value written into the state."""
        return self.kind in UNITS.values()

    def new_value(self, old: int) -> int:
        mask = 0xFF if self.kind == "rom" else 0xFFFFFFFF
        return (self.value if self.value is not None else old ^ (1 << (self.bit or 0))) & mask

    def where(self) -> str:
        if self.silences:
            return f"{self.kind} {self.unit} of layer {self.layer}"
        if self.kind == "reg":
            return f"register r{self.reg} of warp {self.warp} lane {self.lane}"
        if self.kind == "rom":
            from compiler.circuit.protocol import TERM_SLOT

            slot = "the terminator" if self.slot == TERM_SLOT else f"slot {self.slot}"
            return f"ROM block {self.block} {slot} field {self.field}"
        return f"memory word {self.addr}"


def parse_fault(text: str, launch, cfg: MachineConfig, steps: int | None = None) -> Fault:
    """``text`` as a :class:`Fault` for this launch (``launch.layout`` names its arrays); ``steps``:
    the launch's EXEC steps when known (a fault after the last one could never show). A bad SPEC is
    a LaunchError saying what is wrong."""
    m = _SPEC.match(text)
    if not m:
        raise LaunchError(f"--inject {text!r}: {HELP}")
    step = int(m["step"])
    if steps is not None and step >= steps:
        raise LaunchError(f"--inject {text!r}: the launch has {steps} EXEC steps (0..{steps - 1})")
    if m["layer"] is not None:
        if m["bit"] is not None or m["value"] is not None:
            raise LaunchError(f"--inject {text!r}: a neuron or head is silenced: it takes no ^B or =V")
        return Fault(UNITS[m["unit"]], step=step, layer=int(m["layer"]), unit=int(m["unit_index"]), text=text.strip())
    rom = m["block"] is not None
    bits = 8 if rom else cfg.word_bits
    bit = int(m["bit"]) if m["bit"] is not None else (None if m["value"] is not None else 0)
    if bit is not None and not 0 <= bit < bits:
        raise LaunchError(f"--inject {text!r}: bit {bit} is not in 0..{bits - 1}")
    value = int(m["value"], 0) if m["value"] is not None else None
    if value is not None and rom and not 0 <= value < 256:
        raise LaunchError(f"--inject {text!r}: a ROM field is one byte: {value} is not in 0..255")
    if value is not None and not -(1 << 31) <= value < (1 << 32):
        raise LaunchError(f"--inject {text!r}: {value} is not a 32-bit value")
    if rom:
        from compiler.circuit.protocol import FIELDS, TERM_SLOT

        block, slot, field = int(m["block"]), (TERM_SLOT if m["slot"] == "t" else int(m["slot"])), m["field"]
        if block >= cfg.rom_blocks:
            raise LaunchError(f"--inject {text!r}: the ROM has blocks 0..{cfg.rom_blocks - 1}")
        if slot != TERM_SLOT and slot >= cfg.block.max_instrs:
            raise LaunchError(f"--inject {text!r}: a block has slots 0..{cfg.block.max_instrs - 1} and t "
                              "(the terminator)")
        if field not in FIELDS:
            raise LaunchError(f"--inject {text!r}: no ROM field {field!r} (fields: {', '.join(FIELDS)})")
        return Fault("rom", step=step, block=block, slot=slot, field=field, bit=bit, value=value, text=text.strip())
    t = resolve(m, f"--inject {text!r}", launch, cfg)
    return Fault(t.kind, step=step, warp=t.warp, lane=t.lane, reg=t.reg, addr=t.addr, bit=bit, value=value,
                 text=text.strip())


def inject_interpreter(interp, fault: Fault) -> tuple[int, int]:
    """Apply ``fault`` to an interpreter's state (call it before stepping EXEC step ``fault.step``).
    Returns (old, new) values. A ROM fault has no interpreter counterpart (ValueError)."""
    if fault.kind == "rom" or fault.silences:
        what = "its ROM image" if fault.kind == "rom" else "a network"
        raise ValueError(f"{fault.text}: the interpreter runs the program, not {what}; this fault is "
                         "judged against the fault-free interpreter")
    if fault.kind == "reg":
        regs = interp.warps[fault.warp].regs[fault.lane]
        old = regs[fault.reg] & 0xFFFFFFFF
        regs[fault.reg] = fault.new_value(old)
    else:
        old = interp.memory[fault.addr] & 0xFFFFFFFF
        interp.memory[fault.addr] = fault.new_value(old)
    return old, fault.new_value(old)


def inject_model(run, fault: Fault) -> tuple[int, int]:
    """Apply ``fault`` to a ModelRun's state: the new value as a clean codeword in every copy (long
    value head: the bit pairs; short head: zeros, as a long VAL/MEM record writes them). Call it when
    the run's pending input is the EXEC token of step ``fault.step``. Returns (old, new) as read
    back from the state; for a silenced unit (1, 0), or (0, 0) when the engine finds that unit
    gives no output already (nothing changes: ``silence`` in engine/model.py)."""
    from compiler.circuit.layers import VAMP
    from compiler.circuit.words import REG_ROWS

    gpu = run.gpu
    state = gpu.layout["state"]
    if fault.kind == "rom":
        return _inject_rom(run, fault)
    if fault.silences:
        return _silence(run, fault)
    if "copies" not in state:
        raise LaunchError("this checkpoint's layout lists no state copies (built before fault injection): "
                          "rebuild it ('qgpu build')")
    if fault.kind == "reg":
        old = run.registers(warp=fault.warp)[(fault.lane, fault.reg)].value
        copies, row, short = state["copies"]["registers"], REG_ROWS * fault.warp + fault.reg, 2 * fault.lane
    else:
        old = run.memory()[fault.addr].value
        copies, row, short = state["copies"]["memory"], fault.addr, 0
    new = fault.new_value(old)
    m = state["heads_per_key"]
    def write(S, c) -> None:
        h = c["head"] * m + short
        S[:, h, row, :] = 0.0
        S[:, h + 1, row, :] = 0.0
        for t in range(32):
            S[:, h + 1, row, 2 * t + (0 if new >> t & 1 else 1)] = VAMP

    _edit_states(run, copies, write)
    got = (run.registers(warp=fault.warp)[(fault.lane, fault.reg)] if fault.kind == "reg"
           else run.memory()[fault.addr])
    if got.value != new or not got.ok:
        raise RuntimeError(f"fault {fault.text}: the state reads {got} after writing {new} into every copy "
                           "(the layout's state copies do not match this checkpoint)")
    return old, new


def _edit_states(run, places: list[dict], write) -> None:
    """For each layer among ``places`` (layout entries with ``layer`` and ``head``): its DeltaNet state
    (batch, value heads, dk, dv) as a copy, ``write(S, place)`` for each of its places, written back."""
    exe = run.gpu.exe
    for layer in sorted({p["layer"] for p in places}):
        S = exe.recurrent_state(run.cache, layer).clone()
        for p in places:
            if p["layer"] == layer:
                write(S, p)
        exe.write_recurrent_state(run.cache, layer, S)


def _inject_rom(run, fault: Fault) -> tuple[int, int]:
    """A ROM fault: the field's new byte in every state copy of its slot, as the prompt writes a
    field (a set/clear pair per bit; a zero field is no entry at all)."""
    from compiler.circuit.layers import VAMP
    from compiler.circuit.protocol import FIELDS
    from compiler.circuit.rom import cell

    gpu = run.gpu
    old = run.rom().get((fault.block, fault.slot), {}).get(fault.field, 0)
    new = fault.new_value(old)
    j, row, col = cell(fault.block, FIELDS.index(fault.field))
    m = gpu.layout["state"]["heads_per_key"]
    locs = [loc for loc in gpu.layout["state"]["rom"] if loc["slot"] == fault.slot]
    if not locs:
        raise LaunchError(f"--inject {fault.text}: this checkpoint holds no ROM slot {fault.slot}")
    def write(S, loc) -> None:
        h = loc["head"] * m + j
        S[:, h, row, col:col + 16] = 0.0
        if new:
            for k in range(8):
                S[:, h, row, col + 2 * k + (0 if new >> k & 1 else 1)] = VAMP

    _edit_states(run, locs, write)
    got = run.rom().get((fault.block, fault.slot), {}).get(fault.field, 0)
    if got != new:
        raise RuntimeError(f"fault {fault.text}: the ROM reads {got} after writing {new} into every copy")
    return old, new


def unit_counts(path) -> dict[int, dict[str, int]]:
    """Per decoder layer of the checkpoint at ``path``: how many neurons and heads it has (from its
    config.json, text-only or multimodal)."""
    import json
    from pathlib import Path

    raw = json.loads((Path(path) / "config.json").read_text())
    c = raw.get("text_config", raw)
    types = list(c["layer_types"])[: c["num_hidden_layers"]]
    return {i: {"neuron": c["intermediate_size"],
                "head": c["linear_num_value_heads"] if t == "linear_attention" else c["num_attention_heads"]}
            for i, t in enumerate(types)}


def check_unit(fault: Fault, path) -> None:
    """A silenced unit must exist in the checkpoint at ``path`` (LaunchError saying what it has)."""
    counts = unit_counts(path)
    if fault.layer not in counts:
        raise LaunchError(f"--inject {fault.text}: the checkpoint has layers 0..{len(counts) - 1}")
    n = counts[fault.layer][fault.kind]
    if fault.unit >= n:
        raise LaunchError(f"--inject {fault.text}: layer {fault.layer} has {fault.kind}s 0..{n - 1}")


def _silence(run, fault: Fault) -> tuple[int, int]:
    check_unit(fault, run.gpu.path)
    return (1 if run.gpu.exe.silence(fault.layer, fault.kind, fault.unit) else 0), 0


def exec_positions(tokens: list[str]) -> list[int]:
    """Index of each EXEC token in a launch's token trace (EXEC step k's token is at ``[k]``)."""
    return [i for i, t in enumerate(tokens) if is_exec(t)]


def faulted_run(program, launch, cfg: MachineConfig, fault: Fault, max_steps: int | None = None):
    """The interpreter's run of the launch with ``fault`` applied before its EXEC step: (the token
    trace the model should generate, the final Result). The tokens are encoded as
    ``protocol.trace_tokens`` does, with the faulted register's held value changed too (a later write
    of a value the register does not hold any more sends a record). A RuntimeFault propagates."""
    from compiler.circuit.protocol import step_tokens
    from engine.interpreter import Interpreter

    interp = Interpreter(program, launch, cfg, max_steps=max_steps)
    tokens: list[str] = []
    held: dict = {}
    while not interp.done():
        if len(interp.trace) == fault.step:
            _, new = inject_interpreter(interp, fault)
            if fault.kind == "reg":
                held[(fault.warp, fault.lane, fault.reg)] = new
        ev = interp.step()
        if ev is None:
            break
        tokens += step_tokens(ev, held)
    return tokens + ["END"], interp.result()
