"""Reading the checkpoint's layout for display: the pipeline stages' layers and ROM rows as text.

The checkpoint's ``qgpu_layout.json`` lists every layer with its pipeline stages (``"stage"``:
``decode+execute``), which the circuit compiler derives from the residual groups the layer computes
(``compiler/circuit/ports.py``, ``layer_stages``; each group names the stage that writes it):
**fetch** reads ROM rows (and layer 0 latches the token), **decode** turns ROM fields into op
flags and operand sources and reads the register, constant and predicate files, **execute** runs
the ALU, guards and memory ports, **writeback** decides the next pcs, stages the results and emits
the records and the next ``EXEC``. Slots' windows overlap, so one layer can belong to several
stages. Nothing here touches machine values: the ROM text is a table lookup of the fields decoded
from the state.
"""

from __future__ import annotations

from compiler.circuit.ports import STAGES
from compiler.circuit.protocol import (
    DST_PRED, GUARD_PFWD, GUARD_PRED, OPCODE_OPS, OPCODES, SRC_FWD, SRC_IMM, SRC_JMM, SRC_PFWD, SRC_PRED,
    TERM_SLOT, TERMINATORS,
)
from compiler.machine.isa import OPS


def stage_layers(layout: dict | None) -> dict[str, list[int]]:
    """Stage -> the layers that implement it, as the layout says (empty lists without a layout)."""
    out: dict[str, list[int]] = {s: [] for s in STAGES}
    for L in (layout or {}).get("layers", []):
        for s in L.get("stage", "").split("+"):
            if s in out:
                out[s].append(L["index"])
    return out


def base_layers(layout: dict | None) -> list[int]:
    """A merged checkpoint's base layers (after the circuit's: compiler/merge.py); [] otherwise."""
    m = (layout or {}).get("merge")
    return list(range(m["circuit_layers"], m["circuit_layers"] + m["base_layers"])) if m else []


def ranges(layers: list[int]) -> str:
    """[0, 1, 2, 6, 11] -> 'L0-2 6 11'."""
    if not layers:
        return "-"
    parts, start, prev = [], layers[0], layers[0]
    for x in layers[1:] + [None]:
        if x is not None and x == prev + 1:
            prev = x
            continue
        parts.append(f"{start}-{prev}" if prev > start else f"{start}")
        if x is not None:
            start = prev = x
    return "L" + " ".join(parts)


def _src(code: int, fields: dict[str, int]) -> str:
    if code == 0:
        return "0"
    if code < SRC_FWD:
        return f"r{code}"
    if code < SRC_FWD + 16:
        return f"s{code - SRC_FWD}"
    if code == SRC_IMM:
        return str(_imm(fields, "imm"))
    if code == SRC_JMM:
        return str(_imm(fields, "jmm"))
    if SRC_PRED <= code < SRC_PFWD:
        return f"p{code - SRC_PRED}"
    if code >= SRC_PFWD:
        return f"ps{code - SRC_PFWD}"
    return f"?{code}"


def _imm(fields: dict[str, int], name: str) -> int:
    v = sum(fields.get(f"{name}{k}", 0) << (8 * k) for k in range(4))
    return v - (1 << 32) if v >> 31 else v


def _guard(g: int) -> str:
    src, neg = g >> 1, g & 1
    name = f"ps{src - GUARD_PFWD}" if src >= GUARD_PFWD else f"p{src - GUARD_PRED}"
    return f"@{'!' if neg else ''}{name} "


def _temp_dst(code: int, name: str, slot: int) -> list[str]:
    """A result-producing op whose ROM row has no dst field writes a block temporary: later slots
    read it forwarded (``s<slot>``, ``ps<slot>`` for a predicate) and nothing is written back."""
    op = OPCODE_OPS[code] if code < len(OPCODE_OPS) else None
    if op is None or OPS[op].dst == "-":
        return []
    pred = OPS[op].dst == "p" or name in ("vote.any", "vote.all", "vote.uni")
    return [f"{'ps' if pred else 's'}{slot}"]


def _dst(code: int) -> str:
    return f"p{code - DST_PRED}" if code >= DST_PRED else f"r{code}"


def rom_text(slot: int, fields: dict[str, int]) -> str:
    """One ROM row as assembly-like text (``s1`` = slot 1's result forwarded, ``ps1`` its predicate;
    a destination shown as ``s1`` is a temporary, never written back)."""
    g = _guard(fields["guard"]) if fields.get("guard") else ""
    if slot == TERM_SLOT:
        op = fields.get("op", 0)
        name = TERMINATORS[op] if op < len(TERMINATORS) else f"?{op}"
        a, b = fields.get("a", 0), fields.get("b", 0)
        if name == "jump":
            return f"jump B{a}"
        if name == "branch":
            return f"{g}branch B{a} else B{b}"
        if name == "exit":
            return f"{g}exit" + (f" else B{b}" if g else "")
        if name == "bar":
            return f"bar.sync -> B{a}"
        return name
    op = fields.get("op", 0)
    name = OPCODES[op] if op < len(OPCODES) else f"?{op}"
    dsts = [_dst(fields[k]) for k in ("dst", "dst2") if fields.get(k)] or _temp_dst(op, name, slot)
    keep_old = bool(g and fields.get("dst") and fields.get("d"))  # d: the old value, where the guard fails
    names = "abc" if keep_old else "abcd"
    last = max((i for i, k in enumerate(names) if fields.get(k)), default=-1)
    srcs = [_src(fields.get(k, 0), fields) for k in names[:last + 1]]
    body = ", ".join(srcs) + (f" (else {_src(fields['d'], fields)})" if keep_old else "")
    return f"{g}{name} {'|'.join(dsts)}{' <- ' if dsts and body else ''}{body}".rstrip()
