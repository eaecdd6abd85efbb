"""Block temporaries: the registers and predicates a block writes that no later block reads.

Each register a block keeps costs writeback tokens after its ``EXEC`` (docs/circuit.md, "Token
protocol"); a value produced and used up inside one block already travels within the forward
pass (operand forwarding), so it need not go back at all. This pass runs on the final machine
blocks (after register allocation and block splitting) and fills ``Block.temps`` from a
liveness analysis over them; the machine's semantics of a temporary (docs/machine.md,
"Temporaries": visible to the rest of its block, the register file keeps its old value) make a
wrong answer here visible as a wrong result, which every kernel test would catch.
"""

from __future__ import annotations

from dataclasses import replace

from compiler.machine.isa import Block, Pred, Program, Reg, successors

Loc = Reg | Pred


def _reads(block: Block) -> list[Loc]:
    guard = getattr(block.term, "guard", None)
    return [guard.pred] if guard is not None else []


def live_in(block: Block, live_out: set[Loc]) -> set[Loc]:
    """What the block needs from the register file, given what is live after it. A guarded write
    does not kill: lanes whose guard fails keep the old value."""
    live = set(live_out) | set(_reads(block))
    for ins in reversed(block.instrs):
        if ins.guard is None:
            live -= set(ins.regs_written())
        live |= {s for s in ins.regs_read() if not (isinstance(s, Reg) and s.n == 0)}
    return live


def live_out_sets(blocks: list[Block]) -> list[set[Loc]]:
    """Registers and predicates live at the end of each block (a fixpoint over the ROM graph)."""
    out: list[set[Loc]] = [set() for _ in blocks]
    inn: list[set[Loc]] = [set() for _ in blocks]
    changed = True
    while changed:
        changed = False
        for b in reversed(blocks):
            o = set().union(*(inn[int(t)] for t in successors(b.term)))
            i = live_in(b, o)
            if o != out[b.index] or i != inn[b.index]:
                out[b.index], inn[b.index] = o, i
                changed = True
    return out


def mark_temps(program: Program) -> Program:
    """Set every block's ``temps``: what it writes (r0 excluded) that is dead after it."""
    outs = live_out_sets(program.blocks)
    blocks = []
    for b, live in zip(program.blocks, outs):
        written = {d for ins in b.instrs for d in ins.regs_written() if not (isinstance(d, Reg) and d.n == 0)}
        blocks.append(replace(b, temps=frozenset(written - live)))
    program.blocks = blocks
    return program
