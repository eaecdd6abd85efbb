"""A compiled :class:`Program` as plain JSON (``qgpu compile --json``; replay files reuse it)."""

from __future__ import annotations

from compiler.machine.isa import Barrier, Branch, Exit, Imm, Instr, Jump, Pred, Program, Reg, sort_regs


def _operand(o) -> object:
    if isinstance(o, Reg):
        return f"r{o.n}"
    if isinstance(o, Pred):
        return f"p{o.n}"
    if isinstance(o, Imm):
        return o.value
    raise TypeError(o)


def instr_to_json(ins: Instr) -> dict:
    out: dict = {"op": ins.op.value, "srcs": [_operand(s) for s in ins.srcs]}
    if ins.mod:
        out["mod"] = ins.mod
    if ins.dst is not None:
        out["dst"] = _operand(ins.dst)
    if ins.dst2 is not None:
        out["dst2"] = _operand(ins.dst2)
    if ins.guard is not None:
        out["guard"] = ("!" if ins.guard.negate else "") + f"p{ins.guard.pred.n}"
    if ins.line:
        out["ptx_line"] = ins.line
    return out


def terminator_to_json(t) -> dict:
    if isinstance(t, Jump):
        return {"kind": "jump", "target": t.target}
    if isinstance(t, Branch):
        return {"kind": "branch", "guard": ("!" if t.guard.negate else "") + f"p{t.guard.pred.n}",
                "target": t.target, "fallthrough": t.fallthrough}
    if isinstance(t, Barrier):
        return {"kind": "bar.sync", "target": t.target}
    assert isinstance(t, Exit)
    out: dict = {"kind": "exit"}
    if t.guard is not None:
        out["guard"] = ("!" if t.guard.negate else "") + f"p{t.guard.pred.n}"
        out["fallthrough"] = t.fallthrough
    return out


def program_to_json(p: Program) -> dict:
    return {
        "kernel": p.kernel,
        "params": [{"name": q.name, "type": q.ctype, "pointer": q.is_pointer, "unsigned": q.unsigned}
                   for q in p.params],
        "shared_words": p.shared_words,
        "local_words": p.local_words,
        "spill_words": p.spill_words,
        "unroll": p.unroll,
        "shared_symbols": p.shared_symbols,
        "regs_used": p.regs_used,
        "preds_used": p.preds_used,
        "blocks": [{"index": b.index, "label": b.label, "ptx_lines": list(b.ptx_lines),
                    "cuda_lines": list(b.cuda_lines),
                    "instrs": [instr_to_json(i) for i in b.instrs],
                    "term": terminator_to_json(b.term), "serial": b.serial,
                    "temps": [_operand(d) for d in sort_regs(b.temps)]} for b in p.blocks],
    }
