"""Random integer CUDA expressions and kernels, with an independent evaluator.

Used by ``tests/test_fuzz_kernels.py`` (differential testing of the kernel
compiler + interpreter). Nothing here imports the project: the expected values
come from a plain-Python model of C++ semantics for 32-bit ``int`` and
``unsigned``:

* ``+ - *`` wrap for ``unsigned``; for ``int`` they must not overflow (C++ UB),
* ``/`` and ``%`` truncate toward zero (the remainder takes the dividend's sign),
* ``<<``/``>>`` with amounts 0..31; ``>>`` on ``int`` is arithmetic,
* the usual arithmetic conversions: ``int`` op ``unsigned`` -> ``unsigned``,
  comparisons included (``-1 < 0u`` is false),
* comparisons and ``! && ||`` give ``int`` 0/1; ``&&``/``||`` short-circuit,
* ``min/max/abs``, ``__mulhi``, ``__umulhi``, ``__popc``, ``__clz``, ``__brev``.

Undefined behaviour is avoided *by construction*: every node is built with the
concrete values it takes for all threads (the inputs are drawn first) and a node
that would overflow a signed operation, divide by zero, compute INT_MIN / -1,
shift a negative ``int`` left, ... is replaced by a well-defined variant (the
operation done in ``unsigned`` and cast back, an odd divisor, ...). The strict
evaluator raises :class:`UB` on any of these, so a generated tree is checked
again when its expected values are computed.

Values are kept canonical: ``int`` as a Python int in [-2**31, 2**31),
``unsigned`` in [0, 2**32).
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field

MASK32 = 0xFFFFFFFF
INT_MIN = -(1 << 31)
INT_MAX = (1 << 31) - 1

INT, UINT = "int", "unsigned"


class UB(Exception):
    """The expression would have undefined behaviour in C++ (for these values)."""


def u32(x: int) -> int:
    return x & MASK32


def s32(x: int) -> int:
    x &= MASK32
    return x - (1 << 32) if x & 0x80000000 else x


def conv(v: int, ty: str) -> int:
    """Convert a value to ``ty`` (modular, as nvcc does for int <-> unsigned)."""
    return u32(v) if ty == UINT else s32(v)


def common(t1: str, t2: str) -> str:
    """Usual arithmetic conversions for two 32-bit operands."""
    return UINT if UINT in (t1, t2) else INT


def c_div(a: int, b: int) -> int:
    q = abs(a) // abs(b)
    return q if (a < 0) == (b < 0) else -q


def c_rem(a: int, b: int) -> int:
    return a - b * c_div(a, b)


def popc(x: int) -> int:
    return u32(x).bit_count()


def clz(x: int) -> int:
    x = u32(x)
    return 32 - x.bit_length()


def brev(x: int) -> int:
    x = u32(x)
    return int(f"{x:032b}"[::-1], 2)


# ---------------------------------------------------------------------------
# Expression tree
# ---------------------------------------------------------------------------

@dataclass(eq=False)
class Node:
    ty: str = field(init=False, default=INT)

    def size(self) -> int:
        return 1 + sum(k.size() for k in self.kids())

    def kids(self) -> tuple[Node, ...]:
        return ()


@dataclass(eq=False)
class Const(Node):
    value: int
    cty: str
    text: str

    def __post_init__(self):
        self.ty = self.cty
        self.value = conv(self.value, self.cty)


@dataclass(eq=False)
class Var(Node):
    name: str
    vty: str
    text: str

    def __post_init__(self):
        self.ty = self.vty


@dataclass(eq=False)
class Cast(Node):
    to: str
    x: Node

    def __post_init__(self):
        self.ty = self.to

    def kids(self):
        return (self.x,)


@dataclass(eq=False)
class Unary(Node):
    op: str  # '-', '~', '!'
    x: Node

    def __post_init__(self):
        self.ty = INT if self.op == "!" else self.x.ty

    def kids(self):
        return (self.x,)


ARITH = ("+", "-", "*", "/", "%", "&", "|", "^")
SHIFT = ("<<", ">>")
CMP = ("<", "<=", ">", ">=", "==", "!=")
LOGIC = ("&&", "||")


@dataclass(eq=False)
class Binary(Node):
    op: str
    x: Node
    y: Node

    def __post_init__(self):
        if self.op in ARITH:
            self.ty = common(self.x.ty, self.y.ty)
        elif self.op in SHIFT:
            self.ty = self.x.ty
        else:
            self.ty = INT

    def kids(self):
        return (self.x, self.y)


@dataclass(eq=False)
class Ternary(Node):
    c: Node
    x: Node
    y: Node

    def __post_init__(self):
        self.ty = common(self.x.ty, self.y.ty)

    def kids(self):
        return (self.c, self.x, self.y)


# name -> (parameter types, result type); None: same as the (equal) argument types
CALLS = {
    "min": (None, None),
    "max": (None, None),
    "abs": ((INT,), INT),
    "__mulhi": ((INT, INT), INT),
    "__umulhi": ((UINT, UINT), UINT),
    "__popc": ((UINT,), INT),
    "__clz": ((INT,), INT),
    "__brev": ((UINT,), UINT),
}


@dataclass(eq=False)
class Call(Node):
    fn: str
    args: tuple[Node, ...]

    def __post_init__(self):
        params, res = CALLS[self.fn]
        if params is None:
            assert len(self.args) == 2 and self.args[0].ty == self.args[1].ty, "min/max: same types"
            self.ty = self.args[0].ty
        else:
            assert len(self.args) == len(params)
            for a, p in zip(self.args, params):
                assert a.ty == p, f"{self.fn}: argument of type {a.ty}, expects {p}"
            self.ty = res

    def kids(self):
        return tuple(self.args)


# ---------------------------------------------------------------------------
# Printing (CUDA source text)
# ---------------------------------------------------------------------------

def to_c(n: Node) -> str:
    if isinstance(n, (Const, Var)):
        return n.text
    if isinstance(n, Cast):
        return f"(({n.to})({to_c(n.x)}))"
    if isinstance(n, Unary):
        return f"({n.op}{to_c(n.x)})"
    if isinstance(n, Binary):
        return f"({to_c(n.x)} {n.op} {to_c(n.y)})"
    if isinstance(n, Ternary):
        return f"({to_c(n.c)} ? {to_c(n.x)} : {to_c(n.y)})"
    if isinstance(n, Call):
        return f"{n.fn}({', '.join(to_c(a) for a in n.args)})"
    raise TypeError(n)


# ---------------------------------------------------------------------------
# Evaluation (C++ semantics; raises UB)
# ---------------------------------------------------------------------------

def apply_unary(op: str, ty: str, x: int) -> int:
    if op == "!":
        return int(x == 0)
    if op == "~":
        return conv(~x, ty)
    if op == "-":
        if ty == INT and x == INT_MIN:
            raise UB("-INT_MIN")
        return conv(-x, ty)
    raise ValueError(op)


def apply_binary(op: str, xt: str, yt: str, x: int, y: int) -> int:
    if op in SHIFT:
        if not 0 <= y < 32:  # the amount's value, whatever its type
            raise UB(f"shift by {y}")
        if op == ">>":
            return conv(x >> y, xt)  # Python >> on a negative int is arithmetic
        if xt == INT and (x < 0 or (x << y) > MASK32):
            raise UB(f"{x} << {y}")
        return conv(x << y, xt)
    if op in LOGIC:
        raise ValueError("&& and || are evaluated by the caller (short-circuit)")
    t = common(xt, yt)
    x, y = conv(x, t), conv(y, t)
    if op in CMP:
        return int({"<": x < y, "<=": x <= y, ">": x > y, ">=": x >= y,
                    "==": x == y, "!=": x != y}[op])
    if op in ("/", "%"):
        if y == 0:
            raise UB("division by zero")
        if t == INT and x == INT_MIN and y == -1:
            raise UB("INT_MIN / -1")
        return conv(c_div(x, y) if op == "/" else c_rem(x, y), t)
    if op == "&":
        r = x & y
    elif op == "|":
        r = x | y
    elif op == "^":
        r = x ^ y
    else:
        r = {"+": x + y, "-": x - y, "*": x * y}[op]
        if t == INT and not INT_MIN <= r <= INT_MAX:
            raise UB(f"signed overflow in {x} {op} {y}")
    return conv(r, t)


def apply_call(fn: str, ty: str, args: list[int]) -> int:
    if fn == "min":
        return min(args)
    if fn == "max":
        return max(args)
    if fn == "abs":
        if args[0] == INT_MIN:
            raise UB("abs(INT_MIN)")
        return abs(args[0])
    if fn == "__mulhi":
        return s32((s32(args[0]) * s32(args[1])) >> 32)
    if fn == "__umulhi":
        return u32((u32(args[0]) * u32(args[1])) >> 32)
    if fn == "__popc":
        return popc(args[0])
    if fn == "__clz":
        return clz(args[0])
    if fn == "__brev":
        return brev(args[0])
    raise ValueError(fn)


def evaluate(n: Node, env: dict[str, int]) -> int:
    """Value of ``n`` (canonical for ``n.ty``) with variables from ``env``."""
    if isinstance(n, Const):
        return n.value
    if isinstance(n, Var):
        return conv(env[n.name], n.ty)
    if isinstance(n, Cast):
        return conv(evaluate(n.x, env), n.to)
    if isinstance(n, Unary):
        return apply_unary(n.op, n.x.ty, evaluate(n.x, env))
    if isinstance(n, Binary):
        if n.op == "&&":
            return int(evaluate(n.x, env) != 0 and evaluate(n.y, env) != 0)
        if n.op == "||":
            return int(evaluate(n.x, env) != 0 or evaluate(n.y, env) != 0)
        return apply_binary(n.op, n.x.ty, n.y.ty, evaluate(n.x, env), evaluate(n.y, env))
    if isinstance(n, Ternary):
        return conv(evaluate(n.x if evaluate(n.c, env) != 0 else n.y, env), n.ty)
    if isinstance(n, Call):
        return apply_call(n.fn, n.ty, [evaluate(a, env) for a in n.args])
    raise TypeError(n)


def eval_all(n: Node, envs: list[dict[str, int]]) -> list[int] | None:
    """Values for every env, or None if any has UB. Both arms of ``?:`` and
    both sides of ``&&``/``||`` are checked (a conservative check for UB)."""
    try:
        for k in n.kids():
            for e in envs:
                evaluate(k, e)
        return [evaluate(n, e) for e in envs]
    except UB:
        return None


def has_var(n: Node) -> bool:
    return isinstance(n, Var) or any(has_var(k) for k in n.kids())


# ---------------------------------------------------------------------------
# Random generation
# ---------------------------------------------------------------------------

INT_CONSTS = [
    (0, "0"), (1, "1"), (2, "2"), (3, "3"), (5, "5"), (7, "7"), (10, "10"), (16, "16"),
    (31, "31"), (100, "100"), (255, "255"), (-1, "(-1)"), (-5, "(-5)"), (-7, "(-7)"),
    (-100, "(-100)"), (12345, "12345"), (0x7FFFFFFF, "0x7fffffff"),
    (INT_MIN, "((int)0x80000000)"), (0x55555555, "0x55555555"), (0xFFFF, "0xffff"),
    (-65536, "(-65536)"), (0x12345678, "0x12345678"),
]
UINT_CONSTS = [
    (0, "0u"), (1, "1u"), (3, "3u"), (7, "7u"), (10, "10u"), (16, "16u"), (255, "255u"),
    (0xFFFFFFFF, "0xffffffffu"), (0x80000000, "0x80000000u"), (0xAAAAAAAA, "0xaaaaaaaau"),
    (0x80000000, "0x80000000"),  # an unsuffixed hex literal that does not fit int is unsigned
    (4000000000, "4000000000u"), (0xDEADBEEF, "0xdeadbeefu"),
]
DIVISORS = [(3, INT, "3"), (7, INT, "7"), (10, INT, "10"), (16, INT, "16"), (-5, INT, "(-5)"),
            (-1, INT, "(-1)"), (1, INT, "1"), (1000, INT, "1000"), (3, UINT, "3u"), (10, UINT, "10u"),
            (16, UINT, "16u"), (0x80000000, UINT, "0x80000000u"), (7, UINT, "7u")]
EDGE_VALUES = [0, 1, -1, INT_MAX, INT_MIN, 0x55555555, 2, -2, INT_MAX - 1, INT_MIN + 1, 0x0000FFFF,
               -0x55555556]


def random_input(rng: random.Random) -> int:
    r = rng.random()
    if r < 0.35:
        return rng.randint(-20, 20)
    if r < 0.65:
        return rng.choice(EDGE_VALUES)
    if r < 0.8:
        return rng.randint(-100000, 100000)
    return s32(rng.getrandbits(32))


@dataclass
class Gen:
    """Builds random expressions that are UB-free for every env in ``envs``."""

    rng: random.Random
    leaves: list[Var]
    envs: list[dict[str, int]]
    stats: dict[str, int] = field(default_factory=dict)

    def _note(self, what: str) -> None:
        self.stats[what] = self.stats.get(what, 0) + 1

    def ok(self, n: Node) -> bool:
        return eval_all(n, self.envs) is not None

    def leaf(self) -> Node:
        r = self.rng.random()
        if r < 0.62:
            return self.rng.choice(self.leaves)
        if r < 0.86:
            v, t = self.rng.choice(INT_CONSTS)
            return Const(v, INT, t)
        v, t = self.rng.choice(UINT_CONSTS)
        return Const(v, UINT, t)

    def cast_to(self, n: Node, ty: str) -> Node:
        return n if n.ty == ty else Cast(ty, n)

    def expr(self, depth: int, top: bool = True) -> Node:
        """A random expression with at most ``depth`` levels of operators.

        Every operator node reads at least one variable (no constant subtrees for
        the C++ compiler to fold away); a top-level expression is never a leaf.
        """
        if depth <= 0 or (not top and self.rng.random() < 0.15):
            return self.leaf()
        for _ in range(4):
            n = self._op(depth)
            if has_var(n):
                return n
        return self._op_with_var(depth)

    def vexpr(self, depth: int) -> Node:
        """A sub-expression that reads a variable."""
        n = self.expr(depth, False)
        return n if has_var(n) else self.rng.choice(self.leaves)

    def _op_with_var(self, depth: int) -> Node:
        v = self.rng.choice(self.leaves)
        return self.checked_arith(self.rng.choice("+-*"), v, self.expr(depth - 1, False))

    def _op(self, depth: int) -> Node:
        kind = self.rng.choices(
            ["arith", "bit", "shift", "div", "cmp", "logic", "unary", "ternary", "call", "cast"],
            weights=[18, 12, 9, 9, 9, 5, 7, 7, 16, 5])[0]
        d = depth - 1
        rng = self.rng
        if kind == "arith":
            return self.checked_arith(rng.choice("+-*"), self.expr(d, False), self.expr(d, False))
        if kind == "bit":
            return Binary(rng.choice("&|^"), self.expr(d, False), self.expr(d, False))
        if kind == "shift":
            return self.shift(rng.choice(SHIFT), self.expr(d, False), d)
        if kind == "div":
            return self.division(rng.choice("/%"), self.expr(d, False), d)
        if kind == "cmp":
            return Binary(rng.choice(CMP), self.expr(d, False), self.expr(d, False))
        if kind == "logic":
            return Binary(rng.choice(LOGIC), self.expr(d, False), self.expr(d, False))
        if kind == "unary":
            op = rng.choice("-~!")
            x = self.expr(d, False)
            n = Unary(op, x)
            if not self.ok(n):  # -INT_MIN: negate in unsigned
                self._note("wrapped -x")
                n = Cast(INT, Unary("-", Cast(UINT, x)))
            return n
        if kind == "ternary":
            return Ternary(self.vexpr(d), self.expr(d, False), self.expr(d, False))
        if kind == "cast":
            x = self.expr(d, False)
            return Cast(UINT if x.ty == INT else INT, x)
        fn = rng.choice(list(CALLS))
        params, _ = CALLS[fn]
        if params is None:
            x, y = self.expr(d, False), self.expr(d, False)
            ty = rng.choice([x.ty, y.ty])
            return Call(fn, (self.cast_to(x, ty), self.cast_to(y, ty)))
        args = tuple(self.cast_to(self.expr(d, False), p) for p in params)
        n = Call(fn, args)
        if not self.ok(n):  # abs(INT_MIN): make the argument odd
            self._note("abs(x | 1)")
            n = Call(fn, (Binary("|", args[0], Const(1, INT, "1")),))
        return n

    def checked_arith(self, op: str, x: Node, y: Node) -> Node:
        n = Binary(op, x, y)
        if self.ok(n):
            return n
        # signed overflow for some thread: do it in unsigned and convert back
        self._note("wrapped signed " + op)
        return Cast(INT, Binary(op, self.cast_to(x, UINT), self.cast_to(y, UINT)))

    def shift(self, op: str, x: Node, d: int) -> Node:
        if self.rng.random() < 0.5:
            amt: Node = Const(self.rng.randint(0, 31), INT, "")
            amt.text = str(amt.value)
        else:
            amt = Binary("&", self.expr(d, False), Const(31, INT, "31"))
        n = Binary(op, x, amt)
        if self.ok(n):
            return n
        self._note("wrapped signed <<")
        return Cast(INT, Binary(op, Cast(UINT, x), amt))

    def division(self, op: str, x: Node, d: int) -> Node:
        r = self.rng.random()
        if r < 0.45:
            v, t, text = self.rng.choice(DIVISORS)
            div: Node = Const(v, t, text)
        elif r < 0.75:
            div = Binary("|", self.vexpr(d), Const(1, INT, "1"))
        else:
            y = self.vexpr(d)
            zero = Const(0, y.ty, "0" if y.ty == INT else "0u")
            one = Const(1, y.ty, "1" if y.ty == INT else "1u")
            div = Ternary(Binary("==", y, zero), one, y)
        n = Binary(op, x, div)
        if self.ok(n):
            return n
        self._note("INT_MIN / -1 avoided")  # the only UB left: INT_MIN / -1
        return Binary(op, x, Const(7, INT, "7"))


# ---------------------------------------------------------------------------
# Straight-line kernels
# ---------------------------------------------------------------------------

THREADS = 4
SLOTS = 3
OUT_SENTINEL = 0x5A5A5A5A

SIGNATURE = 'extern "C" __global__ void k(const int* a, const int* b, const int* c, int* out)'


def thread_envs(a: list[int], b: list[int], c: list[int]) -> list[dict[str, int]]:
    return [{"x": a[t], "y": b[t], "z": c[t], "tid": t} for t in range(len(a))]


def expr_leaves() -> list[Var]:
    return [Var("x", INT, "a[t]"), Var("y", INT, "b[t]"), Var("z", INT, "c[t]"),
            Var("tid", UINT, "threadIdx.x")]


@dataclass
class Case:
    seed: int
    source: str
    inputs: dict[str, list[int]]
    expected_out: list[int]
    """Expected final ``out`` as signed int32 values."""
    exprs: list[Node] = field(default_factory=list)
    stats: dict[str, int] = field(default_factory=dict)


def make_inputs(rng: random.Random) -> dict[str, list[int]]:
    return {name: [random_input(rng) for _ in range(THREADS)] for name in "abc"}


def expr_case(seed: int, max_depth: int = 4) -> Case:
    rng = random.Random(seed)
    inputs = make_inputs(rng)
    envs = thread_envs(inputs["a"], inputs["b"], inputs["c"])
    gen = Gen(rng, expr_leaves(), envs)
    n_exprs = rng.choice([2, 3])
    exprs = [gen.expr(rng.randint(2, max_depth)) for _ in range(n_exprs)]
    lines = [SIGNATURE + " {", "    int t = threadIdx.x;"]
    for i, e in enumerate(exprs):
        lines.append(f"    out[t * {SLOTS} + {i}] = {to_c(e)};")
    lines.append("}")
    expected = [s32(OUT_SENTINEL)] * (THREADS * SLOTS)
    for t, env in enumerate(envs):
        for i, e in enumerate(exprs):
            expected[t * SLOTS + i] = s32(evaluate(e, env))
    return Case(seed, "\n".join(lines) + "\n", inputs, expected, exprs, gen.stats)


# ---------------------------------------------------------------------------
# Kernels with control flow: if/else on data, a data-dependent loop with break
# ---------------------------------------------------------------------------

def cf_case(seed: int, depth: int = 2) -> Case:
    """A kernel with locals, if/else and a loop, evaluated by a direct Python run.

    Shape (the E's are random expressions, each UB-free for every env it can see)::

        int x = a[t], y = b[t], z = c[t];
        unsigned acc = (unsigned)E0;
        int v = E1;
        if (E2) { acc = acc + (unsigned)E3; v = E4; } else { v = v ^ E5; [if (E6) acc = ~acc;] }
        for (int i = 0; i < (x & 7); i++) {   // or (y & 7), (v & 7)
            acc = acc * 3u + (unsigned)E7;     // E7 over x, y, z, v, i
            [if (E8) break;]
        }
        out[t*3+0] = (int)acc; out[t*3+1] = v; out[t*3+2] = E9;   // E9 over acc, v, ...
    """
    rng = random.Random(seed)
    inputs = make_inputs(rng)
    envs = [dict(e) for e in thread_envs(inputs["a"], inputs["b"], inputs["c"])]
    stats: dict[str, int] = {}
    X, Y, Z = Var("x", INT, "x"), Var("y", INT, "y"), Var("z", INT, "z")
    TID = Var("tid", UINT, "threadIdx.x")
    ACC, V, I = Var("acc", UINT, "acc"), Var("v", INT, "v"), Var("i", INT, "i")

    def gen(leaves, envs_):
        g = Gen(rng, leaves, envs_, stats)
        return g

    base = [X, Y, Z, TID]
    e0 = gen(base, envs).expr(depth)
    for e in envs:
        e["acc"] = conv(evaluate(e0, e), UINT)
    e1 = gen(base, envs).expr(depth)
    for e in envs:
        e["v"] = s32(evaluate(e1, e))
    with_v = base + [V, ACC]
    e2 = gen(with_v, envs).expr(depth)
    e3 = gen(with_v, envs).expr(depth)
    # E4 runs after acc changed in the then-branch: check it against those envs too
    then_envs = [dict(e, acc=u32(e["acc"] + u32(evaluate(e3, e)))) for e in envs]
    e4 = gen(with_v, then_envs + envs).expr(depth)
    e5 = gen(with_v, envs).expr(depth)
    else_envs = [dict(e, v=s32(e["v"] ^ evaluate(e5, e))) for e in envs]
    e6 = gen(with_v, else_envs).expr(depth) if rng.random() < 0.6 else None

    src = [SIGNATURE + " {",
           "    int t = threadIdx.x;",
           "    int x = a[t], y = b[t], z = c[t];",
           f"    unsigned acc = (unsigned)({to_c(e0)});",
           f"    int v = {to_c(e1)};",
           f"    if ({to_c(e2)}) {{",
           f"        acc = acc + (unsigned)({to_c(e3)});",
           f"        v = {to_c(e4)};",
           "    } else {",
           f"        v = v ^ ({to_c(e5)});"]
    if e6 is not None:
        src.append(f"        if ({to_c(e6)}) acc = ~acc;")
    src.append("    }")

    # run the if/else
    for e in envs:
        if evaluate(e2, e):
            e["acc"] = u32(e["acc"] + u32(evaluate(e3, e)))
            e["v"] = s32(evaluate(e4, e))
        else:
            e["v"] = s32(e["v"] ^ evaluate(e5, e))
            if e6 is not None and evaluate(e6, e):
                e["acc"] = u32(~e["acc"])

    bound_var = rng.choice(["x", "y", "v"])
    # the loop body's expressions see i = 0..7 with every thread's x, y, z, v
    loop_envs = [dict(e, i=i) for e in envs for i in range(8)]
    body_leaves = [X, Y, Z, V, I, TID]
    e7 = gen(body_leaves, loop_envs).expr(depth) if rng.random() < 0.7 else I
    e8 = gen(body_leaves, loop_envs).expr(depth) if rng.random() < 0.5 else None
    src.append(f"    for (int i = 0; i < ({bound_var} & 7); i++) {{")
    src.append(f"        acc = acc * 3u + (unsigned)({to_c(e7)});")
    if e8 is not None:
        src.append(f"        if ({to_c(e8)}) break;")
    src.append("    }")
    for e in envs:
        for i in range(e[bound_var] & 7):
            li = dict(e, i=i)
            e["acc"] = u32(e["acc"] * 3 + u32(evaluate(e7, li)))
            if e8 is not None and evaluate(e8, dict(e, i=i)):
                break

    e9 = gen([X, Y, Z, TID, V, ACC], envs).expr(depth)
    src += ["    out[t * 3 + 0] = (int)acc;",
            "    out[t * 3 + 1] = v;",
            f"    out[t * 3 + 2] = {to_c(e9)};",
            "}"]
    expected = []
    for e in envs:
        expected += [s32(e["acc"]), e["v"], s32(evaluate(e9, e))]
    return Case(seed, "\n".join(src) + "\n", inputs, expected,
                [e0, e1, e2, e3, e4, e5, e7, e9], stats)
