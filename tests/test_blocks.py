"""Every compiled block obeys the per-pass rules of docs/machine.md (what one EXEC pass can run)."""

from __future__ import annotations

import pytest

from conftest import ROOT, SAMPLES

from compiler.kernel_compiler import compile_file
from compiler.machine.config import DEFAULT
from compiler.machine.isa import Op, Reg
from engine.launch import read_header

KERNELS = SAMPLES + sorted((ROOT / "tests" / "suite").glob("*.cu"))
MEM = (Op.LD, Op.ST, Op.ATOM)


@pytest.mark.parametrize("path", KERNELS, ids=lambda p: p.stem)
def test_block_rules(path):
    prog = compile_file(path, read_header(path).kernel)
    lim = DEFAULT.block
    assert len(prog.blocks) <= DEFAULT.rom_blocks
    for b in prog.blocks:
        where = f"{path.stem} B{b.index}"
        assert len(b.instrs) <= lim.max_instrs, where
        assert sum(i.op in MEM for i in b.instrs) <= lim.max_mem_ops, where
        assert sum(i.op in (Op.ST, Op.ATOM) for i in b.instrs) <= lim.max_stores, where
        assert sum(i.op is Op.ATOM for i in b.instrs) <= lim.max_atomics, where
        stored = False
        from_memory: set = set()
        for k, i in enumerate(b.instrs):
            if i.op in (Op.LD, Op.ATOM):
                assert not stored, f"{where}: memory read after a store"
                assert not (set(i.srcs[:2]) & from_memory), f"{where}: address from a load of the same pass"
            stored |= i.op in (Op.ST, Op.ATOM)
            if i.op in (Op.LD, Op.ATOM) or any(s in from_memory for s in i.regs_read()):
                from_memory |= set(i.regs_written())
            elif i.guard is None:
                from_memory -= set(i.regs_written())  # overwritten with a value not from memory
            for back in range(1, lim.mul_latency):  # no multiply or shuffle result read before it is ready
                earlier = b.instrs[k - back] if k >= back else None
                if earlier is not None and ((earlier.op in (Op.MUL, Op.MULHI_S, Op.MULHI_U, Op.SHFL, Op.VOTE)
                                              and isinstance(earlier.dst, Reg)) or earlier.guard):
                    prev = earlier.dst
                    reads = set(i.regs_read()) | (set(i.regs_written()) if i.guard else set())
                    assert prev == Reg(0) or prev not in reads, f"{where}: reads {prev} {back} slot(s) after it"
            for r in i.regs_written():
                if isinstance(r, Reg):
                    assert 0 <= r.n < DEFAULT.regs, where
                else:
                    assert 0 <= r.n < DEFAULT.preds, where
