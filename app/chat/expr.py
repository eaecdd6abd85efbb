"""Normal mode's expression language: what the model writes, parsed and planned as GPU launches.

The model answers a question with one expression; the host parses it (a real parser: a clear
error with the column for anything else) and turns every operation into one launch of a
ready-made kernel in ``samples/`` — the host computes nothing, it only moves values::

    expr   := term (("+" | "-") term)*
    term   := unary (("*" | "@") unary)*
    unary  := "-" INT | atom
    atom   := INT | vector | matrix | NAME "(" expr ("," expr)* ")" | "(" expr ")"
    vector := "[" expr ("," expr)* "]"   (scalars)   matrix := "[" vector ("," vector)* "]"  (numbers)

| written | kernel (samples/) | result |
|---|---|---|
| ``u @ v`` (vectors) | ``dot.cu`` | scalar |
| ``A @ B``, ``A @ v``, ``u @ B`` | ``matmul_any.cu`` | matrix / vector |
| ``x + y``, ``x - y``, ``x * y`` (elementwise; a scalar side is repeated) | ``elementwise.cu`` | like the operands |
| ``sum(v)``, ``min(v)``, ``max(v)`` or ``sum(1, 2, 3)`` | ``reduce_op.cu`` | scalar |
| ``count(v, x)``: how many elements equal ``x`` | ``reduce_op.cu`` | scalar |
| ``sort(v)`` (at most 32 values) | ``sort_n.cu`` | vector |
| ``dot(u, v)`` | ``dot.cu`` | scalar |

Values are 32-bit signed integers (arithmetic wraps around, as on the GPU).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

from compiler.errors import QgpuError

SAMPLES = Path(__file__).resolve().parents[2] / "samples"
INT_MIN, INT_MAX = -(1 << 31), (1 << 31) - 1
SORT_MAX = 32
"""``sort_n.cu``'s shared array."""
FUNCTIONS = ("sum", "min", "max", "count", "sort", "dot")
REDUCE = {"sum": (0, 0), "min": (1, INT_MAX), "max": (2, INT_MIN), "count": (3, 0)}
"""name -> (reduce_op.cu's op, the start value of out[0])."""
ELEMENTWISE = {"+": 0, "-": 1, "*": 2}


class ExprError(QgpuError):
    """An expression the language does not accept; ``column`` is 1-based."""

    def __init__(self, message: str, column: int | None = None):
        super().__init__(f"column {column}: {message}" if column else message)
        self.column = column


# --- values -----------------------------------------------------------------------------------
@dataclass(frozen=True)
class Value:
    """A scalar (``shape == ()``), a vector (``(n,)``) or a matrix (``(rows, cols)``), row-major."""

    data: tuple[int, ...]
    shape: tuple[int, ...]

    def text(self) -> str:
        if not self.shape:
            return str(self.data[0])
        if len(self.shape) == 1:
            return "[" + ", ".join(map(str, self.data)) + "]"
        c = self.shape[1]
        return "[" + ", ".join("[" + ", ".join(map(str, self.data[r * c:(r + 1) * c])) + "]"
                               for r in range(self.shape[0])) + "]"

    @property
    def kind(self) -> str:
        return ("scalar", "vector", "matrix")[len(self.shape)]


def scalar(x: int) -> Value:
    return Value((x,), ())


# --- syntax -----------------------------------------------------------------------------------
@dataclass
class Node:
    col: int


@dataclass
class Lit(Node):
    value: Value


@dataclass
class Op(Node):
    op: str  # "+", "-", "*", "@" or a function name
    args: list[Node] = field(default_factory=list)


TOKEN = re.compile(r"\s*(?:(?P<int>\d+)|(?P<name>[A-Za-z_]\w*)|(?P<sym>[-+*@(),\[\]]))")


def tokenize(text: str) -> list[tuple[str, str, int]]:
    out, pos = [], 0
    while pos < len(text):
        if text[pos:].strip() == "":
            break
        m = TOKEN.match(text, pos)
        if not m or m.end() == pos:
            col = pos + len(text[pos:]) - len(text[pos:].lstrip()) + 1
            raise ExprError(f"unexpected {text[col - 1]!r}", col)
        kind = m.lastgroup
        out.append((kind, m.group(kind), m.start(kind) + 1))
        pos = m.end()
    out.append(("end", "", len(text) + 1))
    return out


class Parser:
    def __init__(self, text: str):
        self.toks = tokenize(text)
        self.i = 0

    def peek(self) -> tuple[str, str, int]:
        return self.toks[self.i]

    def take(self, want: str | None = None) -> tuple[str, str, int]:
        t = self.toks[self.i]
        if want is not None and t[1] != want:
            raise ExprError(f"expected {want!r}, found {t[1] or 'the end'!r}", t[2])
        self.i += 1
        return t

    def parse(self) -> Node:
        node = self.expr()
        kind, text, col = self.peek()
        if kind != "end":
            raise ExprError(f"unexpected {text!r} after the expression", col)
        return node

    def expr(self) -> Node:
        node = self.term()
        while self.peek()[1] in ("+", "-"):
            _, op, col = self.take()
            node = Op(col, op, [node, self.term()])
        return node

    def term(self) -> Node:
        node = self.unary()
        while self.peek()[1] in ("*", "@"):
            _, op, col = self.take()
            node = Op(col, op, [node, self.unary()])
        return node

    def unary(self) -> Node:
        kind, text, col = self.peek()
        if text == "-":
            self.take()
            return Lit(col, scalar(self.integer(negative=True)))
        return self.atom()

    def integer(self, negative: bool = False) -> int:
        kind, text, col = self.peek()
        if kind != "int":
            raise ExprError(f"expected a number, found {text or 'the end'!r}", col)
        self.take()
        v = -int(text) if negative else int(text)
        if not INT_MIN <= v <= INT_MAX:
            raise ExprError(f"{v} does not fit a 32-bit signed integer", col)
        return v

    def signed(self) -> int:
        if self.peek()[1] == "-":
            self.take()
            return self.integer(negative=True)
        return self.integer()

    def atom(self) -> Node:
        kind, text, col = self.peek()
        if kind == "int":
            return Lit(col, scalar(self.integer()))
        if text == "(":
            self.take()
            node = self.expr()
            self.take(")")
            return node
        if text == "[":
            return self.array()
        if kind == "name":
            if self.toks[self.i + 1][1] != "(":
                raise ExprError(f"unknown name {text!r}: the language has numbers, vectors [1, 2], matrices "
                                f"[[1, 2], [3, 4]] and the functions {', '.join(FUNCTIONS)}", col)
            if text not in FUNCTIONS:
                raise ExprError(f"unknown function {text!r} (known: {', '.join(FUNCTIONS)})", col)
            self.take()
            self.take("(")
            args = [self.expr()]
            while self.peek()[1] == ",":
                self.take()
                args.append(self.expr())
            self.take(")")
            return Op(col, text, args)
        raise ExprError(f"expected a number, a vector, a function or '(', found {text or 'the end'!r}", col)

    def array(self) -> Node:
        _, _, col = self.take("[")
        if self.peek()[1] == "[":
            rows = [self.array()]
            while self.peek()[1] == ",":
                self.take()
                rows.append(self.array())
            self.take("]")
            if any(not isinstance(r, Lit) or r.value.kind != "vector" for r in rows) or \
                    len({r.value.shape for r in rows}) != 1:
                raise ExprError("a matrix's rows must be vectors of numbers, all of one length", col)
            return Lit(col, Value(tuple(x for r in rows for x in r.value.data),
                                  (len(rows), rows[0].value.shape[0])))
        items = [self.expr()]
        while self.peek()[1] == ",":
            self.take()
            items.append(self.expr())
        self.take("]")
        if all(isinstance(i, Lit) and i.value.kind == "scalar" for i in items):
            return Lit(col, Value(tuple(i.value.data[0] for i in items), (len(items),)))
        return Op(col, "vector", items)  # elements computed first (evaluate), then gathered


def parse(text: str) -> Node:
    """The syntax tree of ``text`` (surrounding backticks, a trailing '=' or '.' are allowed)."""
    t = text.strip().strip("`").strip().rstrip("=.").strip()
    if not t:
        raise ExprError("empty expression")
    return Parser(t).parse()


# --- launches -----------------------------------------------------------------------------------
@dataclass
class Launch:
    """One kernel run of a plan: the sample, its arguments (``name=values`` as on the command
    line), where the result is, and its shape."""

    kernel: str
    args: list[str]
    out: str
    shape: tuple[int, ...]
    what: str
    """The operation, as the user reads it (``[1, 2] @ [3, 4]``)."""

    @property
    def path(self) -> Path:
        return SAMPLES / f"{self.kernel}.cu"

    @property
    def size(self) -> int:
        """Words of the result."""
        n = 1
        for d in self.shape:
            n *= d
        return n

    def result(self, words: list[int]) -> Value:
        """The result from the ``out`` array's words (unsigned 32-bit, as read from the state)."""
        return Value(tuple(signed(w) for w in words[:self.size]), self.shape)


def signed(word: int) -> int:
    """A 32-bit word (0..2**32-1) as the signed integer the language shows."""
    return word - (1 << 32) if word > INT_MAX else word


def _arg(name: str, v: Value) -> str:
    return f"{name}={','.join(map(str, v.data))}"


def launch_for_op(op: str, args: list[Value], col: int) -> Launch:
    """The launch that computes ``op`` on evaluated ``args`` (checks shapes, with column)."""
    what = f" {op} ".join(a.text() for a in args) if op in "+-*@" else f"{op}({', '.join(a.text() for a in args)})"
    if op in ELEMENTWISE:
        a, b = args
        if a.kind == "matrix" or b.kind == "matrix":
            if a.shape != b.shape:
                raise ExprError(f"'{op}' needs matrices of one shape, got {a.shape} and {b.shape}", col)
        n = max(len(a.data), len(b.data))
        if a.kind != "scalar" and b.kind != "scalar" and a.shape != b.shape:
            raise ExprError(f"'{op}' needs vectors of one length, got {len(a.data)} and {len(b.data)}", col)
        shape = a.shape if a.kind != "scalar" else b.shape
        rep = [Value(x.data * n if x.kind == "scalar" else x.data, (n,)) for x in (a, b)]  # a scalar repeated
        return Launch("elementwise", [_arg("a", rep[0]), _arg("b", rep[1]), f"out=zeros:{n}", f"n={n}",
                                      f"op={ELEMENTWISE[op]}"], "out", shape, what)
    if op in ("@", "dot"):
        if len(args) != 2:
            raise ExprError(f"{op} takes two operands", col)
        a, b = args
        if a.kind == "vector" and b.kind == "vector":
            if a.shape != b.shape:
                raise ExprError(f"'@' needs vectors of one length, got {len(a.data)} and {len(b.data)}", col)
            n = len(a.data)
            return Launch("dot", [_arg("a", a), _arg("b", b), "out=zeros:1", f"n={n}"], "out", (), what)
        if op == "dot" or "scalar" in (a.kind, b.kind):
            raise ExprError(f"'{op}' needs two vectors or two matrices (a vector counts as a row or "
                            f"a column), got a {a.kind} and a {b.kind}", col)
        m, k = a.shape if a.kind == "matrix" else (1, a.shape[0])
        k2, p = b.shape if b.kind == "matrix" else (b.shape[0], 1)
        if k != k2:
            raise ExprError(f"'@': {m}x{k} times {k2}x{p} does not match", col)
        shape = (m, p) if a.kind == b.kind == "matrix" else ((p,) if a.kind == "vector" else (m,))
        return Launch("matmul_any", [_arg("A", a), _arg("B", b), f"C=zeros:{m * p}", f"m={m}", f"k={k}",
                                     f"p={p}"], "C", shape, what)
    if op in REDUCE:
        code, start = REDUCE[op]
        x = 0
        if op == "count":
            if len(args) != 2 or args[1].kind != "scalar" or args[0].kind == "scalar":
                raise ExprError("count(v, x) takes a vector and the value to count", col)
            args, x = args[:1], args[1].data[0]
        if len(args) == 1 and args[0].kind != "scalar":
            vals = args[0].data
        elif all(a.kind == "scalar" for a in args):
            vals = tuple(a.data[0] for a in args)
        else:
            raise ExprError(f"{op}() takes one vector or several numbers", col)
        v = Value(vals, (len(vals),))
        return Launch("reduce_op", [_arg("in", v), f"out={start}", f"n={len(vals)}", f"op={code}", f"x={x}"],
                      "out", (), what)
    if op == "sort":
        if len(args) == 1 and args[0].kind == "vector":
            vals = args[0].data
        elif all(a.kind == "scalar" for a in args):
            vals = tuple(a.data[0] for a in args)
        else:
            raise ExprError("sort() takes one vector or several numbers", col)
        if len(vals) > SORT_MAX:
            raise ExprError(f"sort() takes at most {SORT_MAX} values (sort_n.cu's shared array), got {len(vals)}", col)
        v = Value(vals, (len(vals),))
        return Launch("sort_n", [_arg("in", v), f"out=zeros:{len(vals)}", f"n={len(vals)}"], "out", (len(vals),), what)
    raise ExprError(f"unknown operation {op!r}", col)


def evaluate(node: Node, run) -> Value:
    """Evaluate ``node`` innermost operation first; ``run(launch) -> Value`` runs one launch (on the
    model, in the chat) and returns its result as read back. A literal is its own value."""
    if isinstance(node, Lit):
        return node.value
    args = [evaluate(a, run) for a in node.args]
    if node.op == "vector":  # gathering computed scalars into a vector moves values, computes nothing
        if any(a.kind != "scalar" for a in args):
            raise ExprError("a vector's elements must be numbers (or give numbers)", node.col)
        return Value(tuple(a.data[0] for a in args), (len(args),))
    return run(launch_for_op(node.op, args, node.col))
