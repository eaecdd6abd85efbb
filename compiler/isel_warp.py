"""Cross-lane PTX ops -> machine ops: shfl.sync, vote.sync, activemask."""

from __future__ import annotations

from compiler.isel_common import LowererBase
from compiler.machine.isa import Imm, Op, ZERO
from compiler.ptx_parse import PPair, PtxInstr


class WarpOps(LowererBase):
    def op_shfl(self, ins: PtxInstr) -> None:
        c = self.c
        if "sync" not in ins.parts:
            raise c.err(f"'{ins.opcode}': use the .sync form (__shfl_*_sync)")
        mode = next((p for p in ins.parts if p in ("up", "down", "bfly", "idx")), None)
        if mode is None:
            raise c.err(f"'{ins.opcode}': unknown shuffle mode")
        d, a, b, cc, mask = ins.operands
        dst2 = None
        if isinstance(d, PPair):
            d, p = d.first, d.second
            dst2 = self.pred(p)
        c.emit(Op.SHFL, self.dst(d), (self.lo(a), self.lo(b), self.lo(cc), self.lo(mask)), mode, dst2=dst2)

    def op_vote(self, ins: PtxInstr) -> None:
        c = self.c
        mode = next((p for p in ins.parts if p in ("any", "all", "ballot", "uni")), None)
        if mode is None or "sync" not in ins.parts:
            raise c.err(f"'{ins.opcode}' is not supported (use __any_sync/__all_sync/__ballot_sync)")
        d, a, mask = ins.operands
        src = self.pred_src(a)
        dst = self.dst(d) if mode == "ballot" else self.pred(d)
        c.emit(Op.VOTE, dst, (src, self.lo(mask)), mode)

    def op_activemask(self, ins: PtxInstr) -> None:
        c = self.c
        (d,) = ins.operands
        p = c.temp_pred()
        c.emit(Op.SETP, p, (ZERO, ZERO), "eq")
        c.emit(Op.VOTE, self.dst(d), (p, Imm(0xFFFFFFFF)), "ballot")
