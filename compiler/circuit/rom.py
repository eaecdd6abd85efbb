"""Program ROM: written by ``I.b.s F.f.x`` records, fetched by ``EXEC.b.w``.

State layout (one key head per instruction slot s, in the layer that fetches slot s;
:func:`cell` is the one definition, used by the builder and by the engine's decoder):

* rows ``(b, g)``: block b, field position g = f mod ``ROW_GROUPS`` (2 rows per block: a
  128-row key head holds 64 blocks);
* value head j holds fields ``f = ROW_GROUPS·j + g``; field f occupies 16 columns of row (b, g):
  bit k of the byte is a one-hot pair (column for 1, column for 0). Fields of one row
  never share a value head, so a 2-row query reads all 16 fields of the slot at once, in the
  key head's 8 value heads.

A field that the prompt never wrote reads as all-zero columns (decoded as 0): the
prompt only sends non-zero fields. Decoding compares the two columns of each bit
(scale-free), so it does not matter how many fields of a row were written.
"""

from __future__ import annotations

from compiler.circuit.layers import GAIN, KeyHead, LayerSpec, ValueHead, lin
from compiler.circuit.protocol import FIELDS
from compiler.circuit.space import Space

BITS = 8
ROW_GROUPS = 2
"""State rows per ROM block (fields f ≡ g mod ROW_GROUPS share row g)."""
VALUE_HEADS = len(FIELDS) // ROW_GROUPS
"""Value heads per ROM slot: ROW_GROUPS fields of 16 columns each."""


def cell(block: int, f: int) -> tuple[int, int, int]:
    """Where field f of a ROM block lives in its slot's key head: (value head, state row, first
    of its 16 columns)."""
    j, g = divmod(f, ROW_GROUPS)
    return j, ROW_GROUPS * block + g, 16 * g


def _bit_form(space: Space, k: int, value: int) -> dict[int, float]:
    """Linear form that is 1 when bit k of the token's payload byte equals value (else 0)."""
    g, sh = (space["pay.lo"], k) if k < 4 else (space["pay.hi"], k - 4)
    return {g[d]: 1.0 for d in range(16) if (d >> sh) & 1 == value}


def latched(space: Space, kind: str, index: int) -> dict[int, float]:
    """Channels that are all 1 exactly when the latch holds address ``index`` of ``kind`` (an AND
    of three one-hots: a key channel tests it directly, no MLP needed)."""
    return {space["latch.kind"][kind]: 1.0, space["latch.hi"][index // 16]: 1.0, space["latch.lo"][index % 16]: 1.0}


def build_rom_slot(L: LayerSpec, space: Space, slot: int, blocks: int, raw_name: str | None = None) -> None:
    """One key head holding slot ``slot`` of every block; every token reads the slot of the current
    step's block (``ctx.block``, latched from ``EXEC.b.w``) into ``rom.raw.<slot>``."""
    a = space["anchor"].start
    field, lslot, xb = space["pay.field"], space["latch.slot"], space["ctx.block"]
    raw = space.shared(raw_name or f"rom.raw.{slot}", [(f, k) for f in FIELDS for k in range(BITS)],
                       kind="scalar", doc="fields of an instruction slot as fetched: per bit +1 set / -1 clear "
                       "/ 0 unwritten (amplitude 1..1.42)", stage="fetch")
    head = KeyHead(name=f"rom.{slot}")
    if blocks * ROW_GROUPS > 128:
        raise ValueError(f"{blocks} ROM blocks need {blocks * ROW_GROUPS} state rows; a key head has 128")
    for b in range(blocks):
        for g in range(ROW_GROUPS):
            row = ROW_GROUPS * b + g
            same_g = {field[f]: 1.0 for i, f in enumerate(FIELDS) if i % ROW_GROUPS == g}
            # AND of five one-hots: latched I record of block b and slot `slot`, token's field ≡ g
            on = lin(latched(space, "I", b), {lslot[slot]: 1.0}, same_g)
            head.k[row] = (0, lin({i: GAIN * w for i, w in on.items()}, (a, -4.5 * GAIN)))
            head.q[row] = (0, {xb[b]: GAIN, a: -GAIN / 2})
    for j in range(VALUE_HEADS):
        in_head = {field[f]: 1.0 for i, f in enumerate(FIELDS) if i // ROW_GROUPS == j}
        vh = ValueHead(name=f"rom.{slot}.{j}", nnz=ROW_GROUPS * BITS,
                       beta=lin({i: GAIN for i in in_head}, (a, -GAIN / 2)))
        for g in range(ROW_GROUPS):
            f = FIELDS[ROW_GROUPS * j + g]
            _, _, first = cell(0, ROW_GROUPS * j + g)
            for k in range(BITS):
                for value in (1, 0):
                    col = first + 2 * k + (1 - value)
                    vh.v[col] = (0, lin({field[f]: GAIN}, {i: GAIN * w for i, w in _bit_form(space, k, value).items()},
                                        (a, -1.5 * GAIN)))
                    vh.z[col] = {a: GAIN / 2}
                    vh.out[col] = {raw[(f, k)]: 1.0 if value else -1.0}
        head.values.append(vh)
    L.heads.append(head)
    L.reads += ["latch.*", "pay.*", "ctx.block"]
    L.writes.append(raw.name)


def build_rom_decode(L: LayerSpec, space: Space, slot: int, raw_name: str | None = None,
                     bits_name: str | None = None) -> None:
    """MLP: clean 0/1 bits of every field of the slot; the raw read is cleared (its bank is reused)."""
    a = space["anchor"].start
    raw = space[raw_name or f"rom.raw.{slot}"]
    bits = space.shared(bits_name or f"rom.bits.{slot}", raw.values, kind="scalar",
                        doc="fields of an instruction slot, clean bits 0/1", stage="decode")
    for key in raw.values:
        L.step(a, {raw[key]: 1.0}, 0.5, {bits[key]: 1.0})
    L.clear(a, raw)
    L.reads.append(raw.name)
    L.writes.append(bits.name)
