"""Word files: registers, memory and launch constants as rows of DeltaNet state.

A 32-bit word lives in one row of two value heads: head 0 holds bytes 0 and 1, head 1
bytes 2 and 3, each byte as two nibble one-hots (64 columns per head, 4 non-zero).
Records write whole heads:

* ``S.x`` (short value) writes both heads at once: byte 0 = x, upper bytes = sign fill;
* ``B0 B1 B2 B3`` (long value) write head 0 at B1 — byte 0 comes from the previous token
  through the DeltaNet conv (lag 1) — and head 1 at B3 the same way.

Reading a row gives the eight nibbles as scalars (0..15) in the residual; a row never
written reads as 0. Several layers may hold a copy of the same file: every copy is
written by the same records, and each copy has its own read queries.
"""

from __future__ import annotations

from compiler.circuit.layers import GAIN, KeyHead, LayerSpec, Lin, ValueHead, lin
from compiler.circuit.space import Group, Space

WORD_KINDS = {"reg": "R", "mem": "M", "const": "K"}


def value_group(space: Space, name: str, doc: str, stage: str, lanes: int = 1) -> Group:
    """Eight scalar nibbles per lane (little-endian): ``(lane, i)`` holds bits 4i..4i+3."""
    return space.add(name, [(l, i) for l in range(lanes) for i in range(8)], kind="scalar", doc=doc, stage=stage)


def _byte_forms(space: Space, k: int, part: str, d: int) -> tuple[Lin, Lin]:
    """(current-token form, previous-token form) that are 1 when byte k's nibble `part` is d."""
    a = space["anchor"].start
    b = {space[f"b{k}.{part}"][d]: 1.0}
    if k == 0:
        short = {space[f"sx.{part}"][d]: 1.0}
    else:  # sign fill of a short value
        short = {space["sx.neg"][1]: 1.0} if d == 15 else ({space["sx.neg"][0]: 1.0} if d == 0 else {})
    return short, b


def word_head(space: Space, name: str, key: dict[int, Lin], query: dict[int, tuple[int, Lin]],
              out: Group, lane: int = 0) -> KeyHead:
    """A key head holding one word per row. ``key``: row -> write-key form (1 on the target row);
    ``query``: row -> (lag, form); the read lands in ``out`` (lane ``lane`` of a value group)."""
    a = space["anchor"].start
    kind = space["tok.kind"]
    head = KeyHead(name=name, q=dict(query))
    for row, form in key.items():
        head.k[row] = (0, lin({i: GAIN * w for i, w in form.items()}, (a, -GAIN / 2)))
    for j in range(2):  # value head j: bytes 2j, 2j+1
        vh = ValueHead(name=f"{name}.{j}", nnz=4)
        # beta: S, or the B token of byte 2j+1 — told apart by that token's own channels
        upper = {space[f"b{2 * j + 1}.lo"][d]: 1.0 for d in range(16)}
        vh.beta = lin({kind["S"]: GAIN}, {i: GAIN * w for i, w in upper.items()}, (a, -GAIN / 2))
        col = 0
        for k in (2 * j, 2 * j + 1):
            for part, nib in (("lo", 2 * k), ("hi", 2 * k + 1)):
                for d in range(16):
                    short, b = _byte_forms(space, k, part, d)
                    if k == 2 * j:  # lower byte of the pair: short value now, or the B token one back
                        # conv sums lag 0 and lag 1 of one projection: offsets -1/4 each (docs/circuit.md)
                        form = lin({i: GAIN * w for i, w in short.items()}, {i: GAIN * w for i, w in b.items()},
                                   (a, -GAIN / 4))
                        vh.v[col] = ((0, 1), form)
                    else:
                        form = lin({i: GAIN * w for i, w in short.items()}, {i: GAIN * w for i, w in b.items()},
                                   (a, -GAIN / 2))
                        vh.v[col] = (0, form)
                    vh.z[col] = {a: GAIN / 2}
                    if d:
                        vh.out[col] = {out[(lane, nib)]: float(d)}
                    col += 1
        head.values.append(vh)
    return head


def word_file_keys(space: Space, name: str, rows: range, lane: int | None = None) -> dict[int, Lin]:
    """Write-key forms of a word file (``reg`` of one lane, ``mem`` or ``const``): row -> a form
    that is 1 exactly on the latched record's row (an AND of one-hots, minus the surplus)."""
    from compiler.circuit.rom import latched

    a = space["anchor"].start
    keys: dict[int, Lin] = {}
    for r in rows:
        form = latched(space, WORD_KINDS[name], r)
        if name == "reg":
            form[space["latch.lane"][lane]] = 1.0
        keys[r] = lin(form, (a, -(len(form) - 1.0)))
    return keys
