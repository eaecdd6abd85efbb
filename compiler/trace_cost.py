"""An estimate of the writeback tokens a compiled program costs, to choose between ways to compile it.

Each ``EXEC`` step costs one token, and after it each register the block keeps costs its address
``R.r`` once and, in each lane, usually one short value; each predicate one token per lane
(docs/circuit.md, "Token protocol"; temporaries send nothing, compiler/block_temps.py). A register rewritten with the value
it held sends nothing either, but that depends on the data, so every kept register is counted: the
estimate is an upper bound of the register records. Stores cost the same however the kernel is
compiled, so they are left out. Trip counts are unknown at compile time: a block inside
k loops counts ``LOOP_WEIGHT ** k`` times, for ``LANES`` lanes. The estimate only orders
alternatives; the real count is the interpreter's trace (``python benchmarks/protocol_tokens.py``).
"""

from __future__ import annotations

from compiler.machine.isa import Block, Pred, Program, Reg, successors

LOOP_WEIGHT = 4
"""How many times a loop's body is assumed to run per entry."""
LANES = 4
"""Lanes assumed to run each block (a full warp of the 4-lane machine)."""


def loop_depths(blocks: list[Block]) -> dict[int, int]:
    """Block index -> number of loops containing it: natural loops of the back edges that a
    depth-first walk from block 0 finds (a heuristic on irreducible graphs, which is enough here)."""
    succ = {b.index: [s for s in successors(b.term) if isinstance(s, int)] for b in blocks}
    preds: dict[int, list[int]] = {i: [] for i in succ}
    for a, ss in succ.items():
        for s in ss:
            preds[s].append(a)
    back: list[tuple[int, int]] = []
    state: dict[int, int] = {}  # 1: on the walk's stack, 2: done
    stack = [(0, iter(succ.get(0, [])))] if blocks else []
    state[0] = 1
    while stack:  # an iterative depth-first walk
        u, it = stack[-1]
        v = next(it, None)
        if v is None:
            state[u] = 2
            stack.pop()
        elif state.get(v) == 1:
            back.append((u, v))
        elif v not in state:
            state[v] = 1
            stack.append((v, iter(succ[v])))
    depth = {i: 0 for i in succ}
    for tail, head in back:
        body, todo = {head}, [tail]
        while todo:
            x = todo.pop()
            if x not in body:
                body.add(x)
                todo += preds[x]
        for x in body:
            depth[x] += 1
    return depth


def estimated_tokens(program: Program) -> int:
    """Loop-weighted writeback tokens of ``program`` (its blocks' temporaries must be marked)."""
    depth = loop_depths(program.blocks)
    total = 0
    for b in program.blocks:
        kept = {d for i in b.instrs for d in i.regs_written()
                if d not in b.temps and not (isinstance(d, Reg) and d.n == 0)}
        regs = sum(1 for d in kept if isinstance(d, Reg))
        preds = sum(1 for d in kept if isinstance(d, Pred))
        total += LOOP_WEIGHT ** depth[b.index] * (1 + regs * (1 + LANES) + LANES * preds)
    return total
