"""Builders for one Qwen3.5 decoder layer, written by action on named directions.

Conventions (docs/circuit.md, "Units and margins"):

* Every token carries an **anchor** channel of size ``ANCHOR`` and a **ballast** of four
  channels (:func:`ballast`) that make the residual's RMS exactly ``ANCHOR`` and dominate
  it, so every RMSNorm divides by almost exactly ``ANCHOR``. The norm weights (the layer
  multiplies by ``1 + w``; ``ANCHOR − 1``, 0 and −1 are exact in float32) make a value
  channel read as its own value (``x̂ = x``), the anchor read as 1 and the ballast as 0.
  All weights below act on ``x̂``.
* Decisions are **scale-free**: a neuron compares a weighted sum with a threshold
  times the anchor, so RMS drift moves both sides together; only output amplitudes
  drift (by well under 1e-3), and every consumer thresholds at half-integers.
* ``GAIN`` is the slope of every step: a unit margin becomes ``GAIN/4`` after the
  quarter-unit shoulders, far in the region where ``silu(x) == x`` and
  ``silu(-x) ≈ 0`` hold in float32.

A :class:`LayerSpec` collects sparse entries; :mod:`compiler.circuit.checkpoint`
assembles them into dense tensors once every layer is known.
"""

from __future__ import annotations

from dataclasses import dataclass, field

ANCHOR = 2.0 ** 20
"""Embedding value of the anchor channel, and the residual's RMS without content. Large, so that
content (Σv² ≤ ~1e7) changes the float32 sum of squares (ANCHOR²·hidden ≈ 4e15) by at most
its last bit."""
BALLAST_CHANNELS = 4
GAIN = 128.0
"""Slope of thresholds, one-hot keys/values and gates (pre-activation ±GAIN/2 for on/off).
A power of two, so GAIN·(k + ¾), GAIN/2 and 2/GAIN are exact in bfloat16."""
VAMP = GAIN / 2
"""Amplitude of a one-hot entry in a DeltaNet value (silu(GAIN/2) == GAIN/2 exactly)."""


def ballast(hidden: int) -> tuple[int, int, int, int]:
    """Integers ``k`` with ``Σ k² = hidden − 1`` (Lagrange: four squares always suffice).

    The ballast channels hold ``ANCHOR·k`` and the anchor ``ANCHOR``, so the sum of squares of a
    token without content is ``ANCHOR²·hidden`` — exactly, in float32 (integers times a power of
    two) — and its RMS is exactly ``ANCHOR``. The anchor then reads as exactly 1
    after a norm whose anchor weight is ``1 + 0``: an anchor weight ``1/√hidden − 1`` (the RMS
    made by the anchor alone) is rounded in float32 and read the anchor as 1 + 2e-6, an error
    that every stage passed on.
    """
    n = hidden - 1
    for a in range(int(n ** 0.5), -1, -1):
        for b in range(min(a, int((n - a * a) ** 0.5)), -1, -1):
            for c in range(min(b, int((n - a * a - b * b) ** 0.5)), -1, -1):
                d2 = n - a * a - b * b - c * c
                d = int(round(d2 ** 0.5))
                if d * d == d2 and d <= c:
                    return a, b, c, d
    raise AssertionError(f"no four squares for {n}")  # unreachable (Lagrange)


Lin = dict[int, float]
"""A sparse linear form over residual channels (of x̂)."""


def bf16_parts(c: float) -> tuple[float, float]:
    """A gate constant (a multiple of GAIN/4) as two parts that bfloat16 holds exactly: a
    multiple of 256·GAIN/4 and the rest (bfloat16 has 8 significant bits, so a multiple of
    GAIN/4 beyond 256·GAIN/4 may not be exact on its own)."""
    n = round(c / (GAIN / 4))
    assert n * (GAIN / 4) == c, c
    sign, m = (1 if n >= 0 else -1), abs(n)
    return sign * (GAIN / 4) * 256 * (m // 256), sign * (GAIN / 4) * (m % 256)


def lin(*parts: Lin | tuple[int, float]) -> Lin:
    """Sum sparse linear forms / (index, weight) pairs."""
    out: Lin = {}
    for p in parts:
        items = p.items() if isinstance(p, dict) else [p]
        for i, w in items:
            out[i] = out.get(i, 0.0) + w
    return out


@dataclass
class Neuron:
    gate: Lin
    up: Lin
    down: Lin


@dataclass
class ValueHead:
    """One value head: ``dv`` columns of state, written with its key head's key."""

    v: dict[int, tuple[int | tuple[int, ...], Lin]] = field(default_factory=dict)
    """column -> (lag, pre-activation form); lag 0 = this token, 1..3 = earlier tokens (conv taps);
    a tuple of lags sums the same projection of those tokens."""
    beta: Lin = field(default_factory=dict)
    """pre-sigmoid write strength (GAIN/2 → 1, -GAIN/2 → 0)."""
    z: dict[int, Lin] = field(default_factory=dict)
    """column -> output gate pre-activation (silu(z) scales the read-out)."""
    out: dict[int, Lin] = field(default_factory=dict)
    """column -> residual channels it adds to (weights apply to the normalised read-out)."""
    nnz: int = 1
    """Entries of a written row that are non-zero (fixes the per-head RMS normalisation)."""
    read_scale: float | None = None
    """Instead of ``nnz``: the read-out of an entry of size 1, after the head's RMS normalisation
    and the open output gate (the out weights are divided by it)."""
    name: str = ""


@dataclass
class KeyHead:
    """One key head: ``dk`` state rows, a query and a key, and its value heads."""

    q: dict[int, tuple[int, Lin]] = field(default_factory=dict)
    """row -> (lag, pre-activation form) of the query."""
    k: dict[int, tuple[int, Lin]] = field(default_factory=dict)
    values: list[ValueHead] = field(default_factory=list)
    name: str = ""
    reads: list[str] = field(default_factory=list, repr=False, compare=False)
    """Groups the builder of this head declares it reads (e.g. a word file's write side: the
    record's latched address and its bytes); they join the layer's declared reads (ports.py)."""
    writes: list[str] = field(default_factory=list, repr=False, compare=False)
    """Groups its read-out adds to, declared by the builder from the handles it was given."""


@dataclass
class LayerSpec:
    index: int
    stage: str
    doc: str
    reads: list[str] = field(default_factory=list)
    writes: list[str] = field(default_factory=list)
    heads: list[KeyHead] = field(default_factory=list)
    neurons: list[Neuron] = field(default_factory=list)
    clears: set[int] = field(default_factory=set, repr=False)
    """Positions in ``neurons`` of the neurons :meth:`clear` added (they free a bank; ports.py
    counts them as reads and writes, but a layer's stage is what it computes)."""

    # --- SwiGLU building blocks (all in x̂ units; ANCHOR channel index given by the circuit) ---
    def neuron(self, gate: Lin, up: Lin, down: Lin) -> None:
        self.neurons.append(Neuron(gate, up, down))

    def step(self, anchor: int, x: Lin, t: float, out: Lin, when: Lin | None = None, when_n: int = 0,
             span: float = 64.0) -> None:
        """``out += [Σ x ≥ t]`` for integer-valued ``Σ x`` and half-integer ``t`` (2 neurons).

        ``when`` (optional): also require all ``when_n`` flags (0/1) to be on — an AND: the sum
        of the flags must never exceed ``when_n``. ``span`` bounds ``|Σ x − t|`` so the condition
        always wins. The large anchor term is not exact in bfloat16: prefer :meth:`flag_step`
        for a single flag.
        """
        cond: Lin = {}
        if when is not None:  # 0 when every flag is on, <= -2·GAIN·span when one is off
            cond = lin({i: 2 * GAIN * span * w for i, w in when.items()}, (anchor, -2 * GAIN * span * when_n))
        for shoulder, sign in ((0.25, 1.0), (-0.25, -1.0)):
            g = lin({i: GAIN * w for i, w in x.items()}, (anchor, -GAIN * (t - shoulder)), cond)
            self.neuron(g, {anchor: 1.0}, {i: sign * w * 2.0 / GAIN for i, w in out.items()})

    def flag_step(self, anchor: int, x: Lin, t: float, out: Lin, flag: int | Lin, *,
                  bf16_exact: bool = False) -> None:
        """``out += flag · [Σ x ≥ t]`` for a 0/1 ``flag`` channel, or a form of exclusive flags
        (2 neurons, gated through the up projection: an off flag makes both neurons exactly 0,
        and no large constant enters the gate).

        ``bf16_exact``: the gate constant (the threshold, plus any anchor weight in ``x``) is
        split between the anchor and the flags (:func:`bf16_parts`), so that every weight is
        exact in bfloat16 whatever ``t``. Sound because the flags are exclusive: when one is on
        the gate sees both parts; when none is, the up projection zeroes the neuron anyway."""
        up = {flag: 1.0} if isinstance(flag, int) else dict(flag)
        for shoulder, sign in ((0.25, 1.0), (-0.25, -1.0)):
            if bf16_exact:
                hi, lo = bf16_parts(GAIN * x.get(anchor, 0.0) - GAIN * (t - shoulder))
                g = lin({i: GAIN * w for i, w in x.items() if i != anchor}, (anchor, hi),
                        {f: lo for f in up} if lo else {})
            else:
                g = lin({i: GAIN * w for i, w in x.items()}, (anchor, -GAIN * (t - shoulder)))
            self.neuron(g, up, {i: sign * w * 2.0 / GAIN for i, w in out.items()})

    def clear(self, anchor: int, *groups) -> None:
        """Subtract the current value of every channel of each group (one neuron each), so a bank
        can be reused; the groups (``space.Group`` handles) join the layer's declared reads and
        writes (compiler/circuit/ports.py). Leaves about 1e-5 of the value (the RMS drift of the
        read), far below every margin."""
        for g in groups:
            self.reads.append(g.name)
            self.writes.append(g.name)
            for c in g.indices:
                self.clears.add(len(self.neurons))
                self.neuron({anchor: GAIN / 2}, {c: 1.0}, {c: -2.0 / GAIN})

    def gated(self, anchor: int, flags: Lin, n: int, value: Lin, out: Lin) -> None:
        """``out += value`` when all ``n`` flags (0/1) are on, else ~0 (1 neuron: silu(±GAIN/2)·value).
        An AND: the flags must never sum to more than ``n`` (n + 1 would pass 3× the value)."""
        g = lin({i: GAIN * w for i, w in flags.items()}, (anchor, -GAIN * (n - 0.5)))
        self.neuron(g, value, {i: w * 2.0 / GAIN for i, w in out.items()})
