"""Integer division and remainder as straight-line machine code.

The circuit that executes the machine has no divider, so -- like a real GPU, whose
``div.u32`` is a sequence of multiplies -- the kernel compiler expands PTX
``div``/``rem`` into ops the circuit does have: ``clz shl shr xor add sub mul mulhi
min max setp selp``, with no branches. The interpreter still knows ``div.*``/``rem.*``
(``compiler/machine/semantics.py`` defines what the expansion must compute, including
NVIDIA's results for a zero divisor); the compiler just never emits them.

Unsigned n / d (every step is exact arithmetic mod 2^32):

1. **Reciprocal** ``m``, an integer approximation of x = 2^32 / d from below.
   Seed: s = clz(d), dn = d << s in [2^31, 2^32); the tangent line ``2*sqrt(2) - 2*D``
   of 1/D at D = 1/sqrt(2) (D = dn / 2^32) is ``SEED - dn`` at scale 2^31, so
   ``m0 = (SEED - dn) >> (31 - s)`` (``31 - s`` is ``s ^ 31``) under-estimates x by a
   relative error e0 <= 3 - 2*sqrt(2) ~ 0.17. From an under-estimate m of x,
   ``E = (-d) * m`` (low word) is exactly 2^32 - d*m = e * 2^32, and Newton's step
   ``m + mulhi(m, E)`` = floor(x * (1 - e^2)) never overshoots x. Two Goldschmidt
   steps (the next error is taken as ``mulhi(E, E)``, computed alongside instead of
   after: shorter, but its rounding adds up; e <~ 2^-10), one exact Newton step
   (e <~ 2^-20), then a last exact step taken as ``m + mulhi(m + 1, E)`` =
   floor(x - u*(u - 1)/x) with u = x - m. It lands on floor(x) when e <= 2^-16 (needed
   for divisors with 2^32 mod d = 1) and, unlike plain Newton, also from one unit
   short: with ``floor`` alone a large d (x small, frac(x) tiny) can stay one unit
   below for ever; the ``+ 1`` cannot overshoot. Result: d*m <= 2^32 and
   Q*(2^32 - d*m) <= 2^32 for Q = floor((2^32 - 1) / d), for every d in [1, 2^32) -- m
   is floor((2^32 - 1) / d) (or 2^32 / d for a power of two, and 0 or 1 when
   d >= 2^31). The reciprocal depends on d only, so this was checked for all 2^32 - 1
   divisors (tests/test_div_lowering.py with ``QGPU_DIV_EXHAUSTIVE=1``, minutes; a
   structured sample of 1.5 million divisors always runs).
2. **Quotient estimate** ``q0 = mulhi(n, m)``: q - 1 <= q0 <= q for q = floor(n / d).
   Upper: n*m / 2^32 <= n / d. Lower: with n >= q*d, n*m / 2^32 >= q - q*(2^32 - d*m) / 2^32
   >= q - 1 by the bound above (q <= Q).
3. **One correction**: r0 = n - q0*d lies in [0, 2d) and fits 32 bits (r0 <= n), so
   q = q0 + (r0 >= d), and the remainder is ``min.u(r0, r0 - d)`` (when r0 < d,
   r0 - d wraps to a value above r0).
4. **d = 0**: s = 32 gives m = 0, q0 = 0, r0 = n: the remainder is n, as the
   hardware gives; the quotient takes an explicit ``selp`` to 0xffffffff, last (after
   the sign, for a signed quotient: an H200 gives -1 for every a, tests/hw/).

Signed: the unsigned core divides |a| by |b| (``max.s(x, 0 - x)``, read unsigned, so
|INT_MIN| = 2^31 is right), then the quotient takes the sign of a ^ b and the remainder
the sign of a, via ``(v ^ s) - s`` with s = 0 or -1. The remainder by zero (a) and
INT_MIN / -1 = INT_MIN (remainder 0) come out of the same formulas; the quotient by
zero is selected after the sign.

Instructions per op: div.u 27, rem.u 24, div.s 35, rem.s 31 (fewer when an operand
is a constant: constants fold). The reciprocal (19 of them; 21 with |b|) is kept per
basic block: another division by the same, unchanged register costs div.u 8, rem.u 5,
div.s 14, rem.s 10. A ``mul``/``mulhi`` result may not be read by the very next
instruction (``BlockLimits.mul_latency``); the sequence fills those slots with
independent work (|a|, signs, the d = 0 test) where it has any, and the block
splitter pads the rest with no-ops. A guarded PTX division guards only its final
write: the arithmetic before it is harmless in every lane, and ~30 guarded
instructions would each wait for the previous one.
"""

from __future__ import annotations

from compiler.isel_common import LowerCtx
from compiler.machine.isa import Guard, Imm, Op, Operand, Pred, Reg
from compiler.machine.semantics import ALU, compare

SEED = 0x6A09E667
"""floor(2*sqrt(2) * 2^31) mod 2^32: the seed line SEED - dn at scale 2^31 (see the module doc)."""

OPS_PER_KIND = {("div", False): 27, ("rem", False): 24, ("div", True): 35, ("rem", True): 31}
"""Instructions of each expansion with register operands (docs/machine.md quotes these)."""
OPS_REUSING_RECIPROCAL = {("div", False): 8, ("rem", False): 5, ("div", True): 14, ("rem", True): 10}
"""The same, when the divisor's reciprocal was computed earlier in the basic block."""


class FoldingSeq:
    """Emits into a LowerCtx, folding ops whose sources are all constants, and fills
    multiply-latency slots from a queue of independent instructions."""

    def __init__(self, c: LowerCtx):
        self.c = c
        self.fillers: list[tuple[str, Op, tuple]] = []
        self.vals: dict[str, Operand] = {}
        """Results of the fillers, by name."""

    def later(self, name: str, op: Op, *srcs) -> None:
        """Queue ``name = op(srcs)`` for the next free slot; a str source is an earlier name."""
        self.fillers.append((name, op, srcs))

    def op(self, op: Op, *srcs, dst: Reg | None = None, guard: Guard | None = None) -> Operand:
        if all(isinstance(s, Imm) for s in srcs):
            value = Imm(ALU[op](*(s.value for s in srcs)))
            if dst is None:
                return value
            op, srcs = Op.MOV, (value,)
        out = dst if dst is not None else self.c.temp()
        self.c.emit(op, out, srcs, guard=guard)
        return out

    def setp(self, cmp: str, a: Operand, b: Operand) -> Pred | bool:
        if isinstance(a, Imm) and isinstance(b, Imm):
            return compare(cmp, a.value, b.value)
        p = self.c.temp_pred()
        self.c.emit(Op.SETP, p, (a, b), cmp)
        return p

    def selp(self, a: Operand, b: Operand, p: Pred | bool, dst: Reg | None = None,
             guard: Guard | None = None) -> Operand:
        if isinstance(p, bool):
            return self.op(Op.MOV, a if p else b, dst=dst, guard=guard)
        out = dst if dst is not None else self.c.temp()
        self.c.emit(Op.SELP, out, (a, b, p), guard=guard)
        return out

    def gap(self) -> None:
        """A slot where the next instruction of the chain would read a multiply result."""
        if self.fillers:
            name, op, srcs = self.fillers.pop(0)
            self.vals[name] = self.op(op, *(self.vals[x] if isinstance(x, str) else x for x in srcs))

    def flush(self) -> None:
        while self.fillers:
            self.gap()


def reciprocal(seq: FoldingSeq, d: Operand, nd: Operand) -> Operand:
    """m with d*m <= 2^32 and floor((2^32-1)/d) * (2^32 - d*m) <= 2^32 (m = 0 for d = 0); nd = -d."""
    op = seq.op
    s = op(Op.CLZ, d)
    dn = op(Op.SHL, d, s)
    k = op(Op.XOR, s, Imm(31))
    y = op(Op.SUB, Imm(SEED), dn)
    m = op(Op.SHR_U, y, k)
    e = op(Op.MUL, nd, m)
    seq.gap()
    h = op(Op.MULHI_U, m, e)  # Goldschmidt: m1 = m0 (1 + e0), e1 ~ e0^2
    f = op(Op.MULHI_U, e, e)
    m = op(Op.ADD, m, h)
    h = op(Op.MULHI_U, m, f)  # m2 = m1 (1 + e1)
    seq.gap()
    m = op(Op.ADD, m, h)
    e = op(Op.MUL, nd, m)  # exact Newton step
    seq.gap()
    h = op(Op.MULHI_U, m, e)
    seq.gap()
    m = op(Op.ADD, m, h)
    e = op(Op.MUL, nd, m)  # last step, rounded so that it lands on floor(x)
    mp = op(Op.ADD, m, Imm(1))
    h = op(Op.MULHI_U, mp, e)
    seq.gap()
    return op(Op.ADD, m, h)


def emit_divrem(c: LowerCtx, dst: Reg, a: Operand, b: Operand, signed: bool, rem: bool,
                guard: Guard | None = None) -> None:
    """dst = a / b (``rem``: a % b), 32-bit, with PTX semantics; a and b are already
    extended to 32 bits. Only the write of dst carries ``guard`` (the PTX instruction's):
    the arithmetic before it runs in every lane, harmlessly. A divisor's reciprocal is
    computed once per basic block (``LowerCtx.div_cache``): a second division by it
    costs only the quotient steps."""
    seq = FoldingSeq(c)
    op, vals = seq.op, seq.vals
    key = ("s" if signed else "u", b)
    cached = c.div_cache.get(key)
    if cached is None:
        if signed:
            nb = op(Op.SUB, Imm(0), b)
            d = op(Op.MAX_S, b, nb)  # |b|, read unsigned
            nd = op(Op.MIN_S, b, nb)  # -|b|
        else:
            d, nd = b, op(Op.SUB, Imm(0), b)
    else:
        d, m = cached
    if signed:  # independent of the reciprocal: fills its multiply slots
        seq.later("na", Op.SUB, Imm(0), a)
        seq.later("n", Op.MAX_S, a, "na")  # |a|, read unsigned
        if rem:
            seq.later("sign", Op.SHR_S, a, Imm(31))  # the remainder takes a's sign
        else:
            seq.later("x", Op.XOR, a, b)
            seq.later("sign", Op.SHR_S, "x", Imm(31))  # the quotient's sign
    else:
        vals["n"] = a
    if cached is None:
        m = reciprocal(seq, d, nd)
        c.div_cache[key] = (d, m)
    seq.flush()  # |a| must exist before the quotient estimate
    n = vals["n"]
    q0 = op(Op.MULHI_U, n, m)
    zero = seq.setp("eq", d, Imm(0)) if not rem else None  # fills the multiply slot
    t = op(Op.MUL, q0, d)
    q1 = op(Op.ADD, q0, Imm(1)) if not rem else None
    r0 = op(Op.SUB, n, t)

    def with_sign(v: Operand, **out) -> Operand:  # (v ^ s) - s: v with the sign s (0 or -1)
        return op(Op.SUB, op(Op.XOR, v, vals["sign"]), vals["sign"], **out)

    if rem:  # the remainder takes a's sign
        r1 = op(Op.SUB, r0, d)
        if signed:
            with_sign(op(Op.MIN_U, r0, r1), dst=dst, guard=guard)
        else:
            op(Op.MIN_U, r0, r1, dst=dst, guard=guard)
        return
    p = seq.setp("hs", r0, d)
    q = seq.selp(q1, q0, p)
    if signed:  # the sign first: a zero divisor gives -1 whatever a's sign (as on an H200)
        if zero is False:  # a constant divisor other than 0: no zero test, the sign writes dst
            with_sign(q, dst=dst, guard=guard)
            return
        q = with_sign(q)
    seq.selp(Imm(0xFFFFFFFF), q, zero, dst=dst, guard=guard)
