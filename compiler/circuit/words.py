"""Word files: registers, memory and launch constants as rows of DeltaNet state.

A 32-bit word is one row of a *pair* of value heads; in each, bit t is a one-hot pair of
columns (``2t`` set, ``2t+1`` clear). A record writes both heads at its last token:

* ``S.x`` (short value): the short head gets the bits (0..7 from the token, 8..31 repeat
  bit 7), the long head gets an all-zero row;
* ``B0 B1 B2 B3`` (long value): at ``B3`` the DeltaNet conv sees the three bytes before it
  (byte j sits ``3 - j`` tokens back); the long head gets the bits, the short head zeros.

Reading sums the two heads (one of them is zero), giving the eight nibbles as scalars
(0..15) per lane, linearly from the "set" columns. A row never written reads as 0.
Why two heads: a single column fed by the S token (lag 0) and by a B token (lag 3 - j)
applies one projection at both lags, so an *earlier* S token sitting 2 or 3 tokens back
would leak into it. Separate heads read every channel at exactly one lag, and each
byte position has its own channels (``b0``..``b3``). Several layers may hold a copy
of the same file (one per read port): every copy is written by the same records.

Registers keep the four lanes in four value heads of one key head (all lanes read the same
register number); constants likewise (per-lane constants such as ``tid`` write one lane's
head); memory has one value head.
"""

from __future__ import annotations

from compiler.circuit.layers import GAIN, KeyHead, Lin, ValueHead, lin
from compiler.circuit.space import Group, Space

WORD_KINDS = {"reg": "R", "mem": "M", "const": "K"}
WORD_RECORD = ["tok.kind", "latch.kind", "latch.hi", "latch.lo", "b0", "b1", "b2", "b3", "sx"]
"""What the write side of every word file reads: the record's kind and latched address, and its
value (the bytes of a long value, the byte of a short one)."""


def _declare(head: KeyHead, reads: list[str], *outs: Group | None) -> KeyHead:
    head.reads += reads
    head.writes += [g.name for g in outs if g is not None]
    return head


def value_group(space: Space, name: str, doc: str, stage: str, lanes: int = 1) -> Group:
    """Eight scalar nibbles per lane (little-endian): ``(lane, i)`` holds bits 4i..4i+3."""
    return space.add(name, [(l, i) for l in range(lanes) for i in range(8)], kind="scalar", doc=doc, stage=stage)


def latched(space: Space, kind: str, index: int) -> dict[int, float]:
    """Channels that are all 1 exactly when the latch holds address ``index`` of ``kind`` (an AND
    of three one-hots: a key channel tests it directly, no MLP needed)."""
    return {space["latch.kind"][kind]: 1.0, space["latch.hi"][index // 16]: 1.0, space["latch.lo"][index % 16]: 1.0}


def and_form(form: Lin, anchor: int) -> Lin:
    """Pre-activation of a key/query channel that is on (+GAIN/2) iff every channel of ``form`` is 1."""
    return lin({i: GAIN * w for i, w in form.items()}, (anchor, -GAIN * (sum(form.values()) - 0.5)))


def word_keys(space: Space, name: str, rows: dict[int, int]) -> dict[int, tuple[int, Lin]]:
    """Write key of a word file: record index -> state row, for ``reg``, ``mem`` or ``const``."""
    a = space["anchor"].start
    return {row: (0, and_form(latched(space, WORD_KINDS[name], i), a)) for i, row in rows.items()}


def _bit_forms(space: Space, t: int, short: bool) -> dict[int, tuple[int, Lin]]:
    """Value column -> (conv lag, form) for bit t of the word: the set column (value 1) and the
    clear column (value 0), from the S token itself (short) or from the B token of byte t//8,
    ``3 - t//8`` tokens back (long)."""
    a = space["anchor"].start
    j, k = divmod(t, 8)
    cols = {}
    for value, col in ((1, 2 * t), (0, 2 * t + 1)):
        if short:  # bits 8..31 of a short value repeat bit 7
            cols[col] = (0, {space["sx"][(min(t, 7), value)]: GAIN, a: -GAIN / 2})
        else:
            cols[col] = (3 - j, {space[f"b{j}"][(k, value)]: GAIN, a: -GAIN / 2})
    return cols


def word_value_heads(space: Space, name: str, beta: Lin, out: Group | None, lane: int = 0,
                     bits: Group | None = None, signs: Group | None = None) -> list[ValueHead]:
    """The (short, long) value heads holding words. ``beta``: channels of which (at most) one is 1
    when these heads take the record (empty: every record), on top of the token being S or B3.
    Reads land in ``out[(lane, nibble)]`` as scalars and, if given, in ``bits[(lane, t)]`` as 0/1
    and in ``signs[(lane, nibble)]`` as the nibble's top bit (0/1: the multiplier's signed digits)."""
    a = space["anchor"].start
    kind = space["tok.kind"]
    ends = {kind["S"]: 1.0, **{space["b3"][(0, v)]: 1.0 for v in (0, 1)}}  # an S token, or B3
    heads = []
    for short in (True, False):
        vh = ValueHead(name=f"{name}.{'short' if short else 'long'}", nnz=32)
        vh.beta = lin({i: GAIN * w for i, w in ends.items()}, {i: GAIN * w for i, w in beta.items()},
                      (a, -GAIN * (1.5 if beta else 0.5)))
        _fill_word_columns(space, vh, short, out, lane, bits, signs)
        heads.append(vh)
    return heads


def _fill_word_columns(space: Space, vh: ValueHead, short: bool, out: Group | None, lane: int,
                       bits: Group | None, signs: Group | None = None) -> None:
    a = space["anchor"].start
    for t in range(32):
        for col, (lag, form) in _bit_forms(space, t, short).items():
            vh.v[col] = (lag, form)
            vh.z[col] = {a: GAIN / 2}
            if col % 2 == 0:  # the set column
                o: Lin = {}
                if out is not None:
                    o[out[(lane, t // 4)]] = float(1 << (t % 4))
                if bits is not None:
                    o[bits[(lane, t)]] = 1.0
                if signs is not None and t % 4 == 3:
                    o[signs[(lane, t // 4)]] = 1.0
                if o:
                    vh.out[col] = o


REG_ROWS = 16
"""Rows per warp in a register file: row ``16·w + r`` is register r of warp w."""


def register_file(space: Space, name: str, regs: int, lanes: int, query: dict[int, tuple[int, Lin]],
                  out: Group | None, bits: Group | None = None, warps: int = 1,
                  signs: Group | None = None) -> KeyHead:
    """One copy of the register file (one read port): row ``16·w + r`` = register r of warp w
    (the warp of an ``R`` record is the current step's, ``ctx.warp``), value head l = lane l.
    ``query``: row -> (lag, pre-activation); the read of every lane lands in ``out`` (and the
    nibbles' top bits in ``signs``, if given)."""
    a = space["anchor"].start
    keys = {}
    for w in range(warps):
        for r in range(1, regs):
            form = latched(space, "R", r)
            form[space["ctx.warp"][w]] = 1.0
            keys[REG_ROWS * w + r] = (0, and_form(form, a))
    head = KeyHead(name=name, q=dict(query), k=keys)
    ll = space["latch.lane"]
    for lane in range(lanes):
        head.values += word_value_heads(space, f"{name}.{lane}", {ll[lane]: 1.0}, out, lane, bits, signs)
    return _declare(head, WORD_RECORD + ["ctx.warp", "latch.lane"], out, bits, signs)


def memory_file(space: Space, name: str, words: int, query: dict[int, tuple[int, Lin]], out: Group | None,
                lane: int = 0) -> KeyHead:
    """One copy of memory (one read port, e.g. for one lane): rows = words."""
    head = KeyHead(name=name, q=dict(query), k=word_keys(space, "mem", {w: w for w in range(words)}))
    head.values += word_value_heads(space, f"{name}.v", {}, out, lane)
    return _declare(head, WORD_RECORD, out)


def constants_file(space: Space, name: str, rows: dict[int, int], lanes: int,
                   query: dict[int, tuple[int, Lin]], out: Group | None) -> KeyHead:
    """Launch constants: ``rows`` maps the K tokens' address -> row; a K token of a per-lane
    constant names its lane (``addr.lane``) and writes only that lane's head."""
    head = KeyHead(name=name, q=dict(query), k=word_keys(space, "const", rows))
    ll = space["latch.lane"]
    for lane in range(lanes):
        beta = {ll[lane]: 1.0, ll["-"]: 1.0}  # this lane's constants, or constants of every lane
        head.values += word_value_heads(space, f"{name}.{lane}", beta, out, lane)
    return _declare(head, WORD_RECORD + ["latch.lane"], out)


def predicate_file(space: Space, name: str, preds: int, lanes: int, query: dict[int, tuple[int, Lin]],
                   out: Group, warps: int = 1) -> KeyHead:
    """One copy of the predicate file: row ``preds·w + p`` = predicate p of warp w, one value head
    per lane holding a one-hot pair (true, false). Written by ``P.l.p.v`` tokens (a record of one
    token) of the current step's warp; a predicate never written reads as false."""
    a = space["anchor"].start
    kind, alane, alo, pval = space["tok.kind"], space["addr.lane"], space["addr.lo"], space["pval"]
    xw = space["ctx.warp"]
    head = KeyHead(name=name, q=dict(query),
                   k={preds * w + p: (0, and_form({kind["P"]: 1.0, alo[p]: 1.0, xw[w]: 1.0}, a))
                      for w in range(warps) for p in range(preds)})
    for lane in range(lanes):
        vh = ValueHead(name=f"{name}.{lane}", nnz=1, beta=and_form({kind["P"]: 1.0, alane[lane]: 1.0}, a))
        for col, v in ((0, 1), (1, 0)):
            vh.v[col] = (0, {pval[v]: GAIN, a: -GAIN / 2})
            vh.z[col] = {a: GAIN / 2}
        vh.out[0] = {out[lane]: 1.0}
        head.values.append(vh)
    return _declare(head, ["tok.kind", "addr.lane", "addr.lo", "pval", "ctx.warp"], out)
