"""Token features: what each token's embedding puts into the residual stream.

Every token carries the anchor (added by the checkpoint builder) and a one-hot
``tok.kind``. Address tokens (``I``, ``R``, ``M``, ``K``) also carry their address
as small one-hot digits (``addr.*``); the first token of a register record's value names
its lane (``vlane``). Payload bytes use a separate channel set per
token kind — ``pay.*`` for ROM fields (F), ``b0``..``b3`` for the bytes of a long value
(B0..B3), ``sx.*`` for a short value (S) — because a state write may combine the current
token with the one before it (the DeltaNet conv), and the two must not mix.
These groups are the only place token identities enter the circuit.
"""

from __future__ import annotations

from compiler.circuit.layers import BALLAST_CHANNELS, Lin
from compiler.circuit.protocol import FIELDS, PARAMS, SLOTS_PER_BLOCK, Vocab, constant_names
from compiler.circuit.space import Space

KINDS = ("special", "BOS", "GO", "END", "EXEC", "BAR", "I", "F", "R", "P", "M", "K", "S", "B")
ADDR_KINDS = ("I", "R", "M", "K")
NONE = "-"
CONSTANTS = constant_names()


def const_row(name: str, warps: int = 4) -> int:
    """Row of a launch constant in the constants file (lanes are value heads of the row):
    params 0..P-1 (P = ``protocol.PARAMS``), ntid P, nctaid P+1, then per warp w: tid P+2+w,
    ctaid P+2+warps+w, present P+2+2·warps+w; which warps exist: row P+2+3·warps (warp w in
    value head w); then per warp w: sbase P+3+3·warps+w, lbase P+3+4·warps+w, cta P+3+5·warps+w."""
    if name.startswith("param"):
        return int(name[5:])
    if name in ("ntid", "nctaid"):
        return PARAMS + (name == "nctaid")
    kind, w = name.split(".")[:2]
    base = PARAMS + 2
    if kind == "warp":  # one row; the warp is the "lane" (value head) of the row
        return base + 3 * warps
    if kind in ("sbase", "lbase", "cta"):
        return base + 1 + int(w) + warps * {"sbase": 3, "lbase": 4, "cta": 5}[kind]
    return base + int(w) + warps * {"tid": 0, "ctaid": 1, "present": 2}[kind]


def const_row_count(warps: int = 4) -> int:
    """Rows of the constants file: the last row (``const_row``'s order) plus one."""
    return const_row(f"cta.{warps - 1}", warps) + 1


def add_constant_groups(space: Space) -> None:
    """The channels every token carries whatever it is (``checkpoint.constant_embedding``)."""
    space.add("anchor", kind="scalar", doc="constant channel (ANCHOR on every token): reads as 1 after every "
              "norm; the bias of every threshold", stage="token")
    space.add("ballast", range(BALLAST_CHANNELS), kind="scalar", doc="constant channels that make the RMS "
              "exactly ANCHOR (layers.ballast); every norm weight zeroes them, nothing reads them", stage="token")


def add_token_groups(space: Space, lanes: int, blocks: int) -> None:
    add_constant_groups(space)
    space.add("tok.kind", KINDS, doc="which kind of token this position holds", stage="token")
    space.add("addr.slot", tuple(range(SLOTS_PER_BLOCK)) + (NONE,), doc="I: instruction slot", stage="token")
    space.add("addr.lane", tuple(range(lanes)) + (NONE,), doc="the lane of an address (M.w.l.k, per-lane K, "
              "P; '-' for the others)", stage="token")
    space.add("vlane", range(lanes), doc="S.l.x, B0.l.x: the lane of a register record's value (latched like "
              "an address's lane)", stage="token")
    space.add("addr.hi", range(8), doc="address index div 16 (I: block, R: register, M: word, K: constant)",
              stage="token")
    space.add("addr.lo", range(16), doc="address index mod 16", stage="token")
    space.add("pay.field", FIELDS + (NONE,), doc="F: which instruction field", stage="token")
    space.add("pay.hi", range(16), doc="F: field byte, high nibble", stage="token")
    space.add("pay.lo", range(16), doc="F: field byte, low nibble", stage="token")
    for k in range(4):
        space.add(f"b{k}", [(i, v) for i in range(8) for v in (0, 1)],
                  doc=f"B{k}: byte {k} of a long value, bit i as a one-hot pair (i, value)", stage="token")
    space.add("sx", [(i, v) for i in range(8) for v in (0, 1)],
              doc="S: the short value's low byte, bit pairs (bits 8..31 repeat bit 7)", stage="token")
    space.add("pval", (0, 1), doc="P: the predicate value", stage="token")
    space.add("exec.block", range(blocks), doc="EXEC: block", stage="token")
    space.add("exec.warp", range(4), doc="EXEC: warp", stage="token")
    space.add("exec.lanes", [(l, v) for l in range(lanes) for v in (0, 1)],
              doc="EXEC: lane l is active (its mask bit), a one-hot pair (l, bit)", stage="token")
    space.add("bar.cta", range(4), doc="BAR: the CTA whose barrier is released", stage="token")
    space.add("bar.p", (0, 1), doc="BAR: parity of the CTA's release count", stage="token")


def embedding(space: Space, word: str) -> Lin:
    """Residual content of one token (without the anchor)."""
    kind, _, rest = word.partition(".")
    if word in ("GO", "END"):
        kind = word
    elif word == "<bos>":  # starts a launch: resets every state (checkpoint.fill_mixer's decay)
        kind = "BOS"
    elif kind[:1] == "B" and kind[1:].isdigit():
        kind = "B"
    elif kind not in KINDS:
        kind = "special"
    e: Lin = {space["tok.kind"][kind]: 1.0}
    parts = rest.split(".") if rest else []

    def addr(index: int, slot=NONE, lane=NONE) -> None:
        e[space["addr.hi"][index // 16]] = 1.0
        e[space["addr.lo"][index % 16]] = 1.0
        e[space["addr.slot"][slot]] = 1.0
        e[space["addr.lane"][lane]] = 1.0

    def pairs(x: int, name: str) -> None:
        for i in range(8):
            e[space[name][(i, (x >> i) & 1)]] = 1.0

    def byte(x: int, prefix: str) -> None:
        e[space[f"{prefix}.hi"][x >> 4]] = 1.0
        e[space[f"{prefix}.lo"][x & 15]] = 1.0

    if kind == "I":
        addr(int(parts[0]), slot=int(parts[1]))
    elif kind == "R":  # R.r: the lanes come with the values (vlane)
        addr(int(parts[0]))
    elif kind == "M":  # a trace write also names its lane and which store of the block (in addr.slot)
        if len(parts) == 3:
            addr(int(parts[0]), slot=int(parts[2]), lane=int(parts[1]))
        else:
            addr(int(parts[0]))
    elif kind == "K":  # the constants file row; per-lane constants (tid.w.l) also name their lane
        name = CONSTANTS[int(parts[0])]
        per_lane = name.startswith(("tid.", "present.", "lbase."))
        lane = int(name.split(".")[2]) if per_lane else (int(name.split(".")[1]) if name.startswith("warp.") else NONE)
        addr(const_row(name), lane=lane)
    elif kind == "F":
        e[space["pay.field"][parts[0]]] = 1.0
        byte(int(parts[1]), "pay")
    elif kind == "B":
        pairs(int(parts[-1]), f"b{word[1]}")
        if len(parts) == 2:  # B0.l.x
            e[space["vlane"][int(parts[0])]] = 1.0
    elif kind == "S":
        pairs(int(parts[-1]) & 0xFF, "sx")
        if len(parts) == 2:  # S.l.x
            e[space["vlane"][int(parts[0])]] = 1.0
    elif kind == "P":  # lane and predicate in the address channels (P records are one token)
        addr(int(parts[1]), lane=int(parts[0]))
        e[space["pval"][int(parts[2])]] = 1.0
    elif kind == "BAR":
        e[space["bar.cta"][int(parts[0])]] = 1.0
        e[space["bar.p"][int(parts[1])]] = 1.0
    elif kind == "EXEC":
        e[space["exec.block"][int(parts[0])]] = 1.0
        e[space["exec.warp"][int(parts[1])]] = 1.0
        mask = int(parts[2])
        for lane in {l for l, _ in space["exec.lanes"].values}:
            e[space["exec.lanes"][(lane, (mask >> lane) & 1)]] = 1.0
    return e


def all_embeddings(space: Space, vocab: Vocab) -> dict[int, Lin]:
    return {i: embedding(space, w) for i, w in enumerate(vocab.words)}
