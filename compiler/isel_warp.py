"""Cross-lane PTX ops -> machine ops: shfl.sync, vote.sync, activemask."""

from __future__ import annotations

from compiler.isel_common import VOTE_NO, VOTE_YES, LowererBase, spans_warps
from compiler.machine.isa import Imm, Instr, Op, ZERO
from compiler.ptx_parse import PImm, PPair, PReg, PtxInstr


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

    def vote_mask(self, ins: PtxInstr) -> int | None:
        """The member mask of a vote when it is a compile-time constant."""
        mask = ins.operands[-1]
        if isinstance(mask, PImm):
            return mask.value & 0xFFFFFFFF
        if isinstance(mask, PReg):
            return self.c.consts.get(mask.name)
        return None

    def is_wide_vote(self, ins: PtxInstr) -> bool:
        mask = self.vote_mask(ins)
        return ins.base == "vote" and mask is not None and spans_warps(mask)

    def wide_vote(self, ins: PtxInstr) -> list[list[Instr]]:
        """A vote whose member mask spans several 4-lane warps, through shared memory.

        Each thread ORs its lane bit into a hidden "yes" or "no" word, all threads
        of the CTA meet at a barrier, read both words, meet again, and clear their
        own bit. Returns the instruction groups to run between the two barriers.
        """
        c = self.c
        mode = next((p for p in ins.parts if p in ("any", "all", "ballot", "uni")), None)
        if mode is None or "sync" not in ins.parts:
            raise c.err(f"'{ins.opcode}' is not supported (use __any_sync/__all_sync/__ballot_sync)")
        d, a, _ = ins.operands
        mask = Imm(self.vote_mask(ins))
        yes_w, no_w = Imm(c.shared_offsets[VOTE_YES]), Imm(c.shared_offsets[VOTE_NO])
        src = self.pred_src(a)
        lane, bit, yes, no = c.temp(), c.temp(), c.temp(), c.temp()
        c.emit(Op.SREG, lane, (), "laneid")
        c.emit(Op.SHL, bit, (Imm(1), lane))
        c.emit(Op.SELP, yes, (bit, Imm(0), src))
        c.emit(Op.SELP, no, (Imm(0), bit, src))
        c.emit(Op.ATOM, ZERO, (ZERO, yes_w, yes, ZERO), "shared.or")
        c.emit(Op.ATOM, ZERO, (ZERO, no_w, no, ZERO), "shared.or")
        arrive = c.take()
        ys, ns = c.temp(), c.temp()
        c.emit(Op.LD, ys, (ZERO, yes_w), "shared")
        c.emit(Op.LD, ns, (ZERO, no_w), "shared")
        read = c.take()
        keep = c.temp()
        c.emit(Op.NOT, keep, (bit,))
        c.emit(Op.ATOM, ZERO, (ZERO, yes_w, keep, ZERO), "shared.and")
        c.emit(Op.ATOM, ZERO, (ZERO, no_w, keep, ZERO), "shared.and")
        c.emit(Op.AND, ys, (ys, mask))
        c.emit(Op.AND, ns, (ns, mask))
        if mode == "ballot":
            c.emit(Op.MOV, self.dst(d), (ys,))
        elif mode == "any":
            c.emit(Op.SETP, self.pred(d), (ys, Imm(0)), "ne")
        elif mode == "all":
            c.emit(Op.SETP, self.pred(d), (ns, Imm(0)), "eq")
        else:
            p1, p2 = c.temp_pred(), c.temp_pred()
            c.emit(Op.SETP, p1, (ys, Imm(0)), "eq")
            c.emit(Op.SETP, p2, (ns, Imm(0)), "eq")
            c.emit(Op.POR, self.pred(d), (p1, p2))
        return [arrive, read, c.take()]

    def op_activemask(self, ins: PtxInstr) -> None:
        """``activemask``: the lanes executing this instruction (no member mask to agree on)."""
        c = self.c
        (d,) = ins.operands
        p = c.temp_pred()
        c.emit(Op.SETP, p, (ZERO, ZERO), "eq")
        c.emit(Op.VOTE, self.dst(d), (p, Imm(0xFFFFFFFF)), "active")
