"""Atomics in the stock model: serial blocks, one lane at a time (compiler/isel_atomic.py).

``tests/circuit_kernels/atomic_ops.cu``: 2 CTAs of 6 threads (4 warps, two half full), tickets
from a global counter, a shared counter per CTA, and add/cas/max/min/and/or/xor/exch. Its
expected output is computed here in plain Python: every atomic applies thread after thread
in launch order (warps take turns, lanes in order; docs/machine.md, "Atomics"). The
interpreter must give it, and the model must predict every token of the interpreter's trace.
"""

from pathlib import Path

import pytest

from circuit_programs import CFG3, check_launch, compile_launch
from engine.interpreter import Interpreter

KERNEL = Path(__file__).parent / "circuit_kernels" / "atomic_ops.cu"
IN = [5, -7, 11, 300, 2, 9, 40, -1, 77, 6, 1000, -3]


def _reference() -> tuple[list[int], list[int]]:
    out, acc = [0] * 24, [0, 0, -1, 0, 100, 7, 0, 0]
    shared = [0, 0]
    for i, v in enumerate(IN):           # atomicAdd(&acc[0], v): the old values
        out[i], acc[0] = acc[0], acc[0] + v
    tickets = []
    for i in range(12):                  # atomicAdd(&s, 1), per CTA
        c = i // 6
        tickets.append(shared[c])
        shared[c] += 1
    for i in range(12):                  # atomicCAS(&acc[1], t, t + 1)
        t = i % 6
        old = acc[1]
        if old == t:
            acc[1] = t + 1
        out[12 + i] = tickets[i] * 100 + old
    for i, v in enumerate(IN):
        t = i % 6
        acc[3] = max(acc[3], v)
        acc[4] = min(acc[4], v)
        acc[2] &= ~(1 << t)
        acc[5] |= 1 << (t + 8)
        acc[6] ^= v
        acc[7] = i
    return [x & 0xFFFFFFFF for x in out], [x & 0xFFFFFFFF for x in acc]


def test_the_interpreter_gives_the_reference():
    prog, launch = compile_launch(KERNEL)
    res = Interpreter(prog, launch, CFG3).run()
    assert (res.arrays["out"], res.arrays["acc"]) == _reference()
    assert not any(i.op.value == "atom" for b in prog.blocks for i in b.instrs)  # all expanded
    assert sum(b.serial for b in prog.blocks) == 9


@pytest.mark.slow
@pytest.mark.full  # QGPU_FULL=1 only (tests/circuit_programs.py): CI replays samples that use these ops (README.md)
def test_atomics_in_the_model(cfg3_model):
    _, model = cfg3_model
    prog, launch = compile_launch(KERNEL)
    assert check_launch(model, prog, launch) == []


INCDEC = Path(__file__).parent / "circuit_kernels" / "atomic_incdec.cu"


def _inc(old: int, lim: int) -> int:  # PTX ISA, atom.inc: ((old >= b) ? 0 : (old + 1)), unsigned
    return 0 if old >= lim else old + 1


def _dec(old: int, lim: int) -> int:  # atom.dec: (((old == 0) || (old > b)) ? b : (old - 1))
    return lim if old == 0 or old > lim else old - 1


def _incdec_reference() -> tuple[list[int], list[int]]:
    lim, cnt, out = [4, 2, 3], [1, 0, 9, 9], [0] * 48
    for step, (word, f, limit, who) in enumerate([(0, _inc, lim[0], range(12)), (1, _dec, lim[1], range(12)),
                                                   (2, _inc, lim[2], range(1, 12, 2)), (3, _dec, lim[2], range(12))]):
        for i in who:  # thread order: the lanes of a warp one after another, warps in turn
            out[12 * step + i], cnt[word] = cnt[word], f(cnt[word], limit)
    return cnt, out


@pytest.mark.parametrize("cfg", ["CFG3", "DEFAULT"])
def test_inc_and_dec_run_in_two_or_three_serial_parts(cfg):
    """``atom.inc``/``atom.dec`` need 5 and 7 instructions: more than one block of the tests'
    machine (3) or the default checkpoint's (4). Their parts go downwards, each the warp's lowest
    block, so one lane's whole read-modify-write runs before the next lane's."""
    from compiler.machine.config import DEFAULT

    machine = {"CFG3": CFG3, "DEFAULT": DEFAULT}[cfg]
    prog, launch = compile_launch(INCDEC, machine)
    assert not any(i.op.value == "atom" for b in prog.blocks for i in b.instrs)  # all expanded
    parts = [b for b in prog.blocks if b.serial]
    assert any(b.term.target == b.index - 1 for b in parts)  # a part going on to the one below
    res = Interpreter(prog, launch, machine).run()
    cnt, out = _incdec_reference()
    assert (res.arrays["cnt"], res.arrays["out"]) == (cnt, out)
    for a, b in zip(res.trace, res.trace[1:]):  # a lane's next part runs right after, for it alone
        if prog.blocks[a.block].serial and prog.blocks[a.block].term.target == a.block - 1:
            assert (b.block, b.warp, b.mask) == (a.block - 1, a.warp, a.mask)


@pytest.mark.slow
def test_inc_and_dec_in_the_model(cfg3_model):
    _, model = cfg3_model
    prog, launch = compile_launch(INCDEC)
    assert check_launch(model, prog, launch) == []
