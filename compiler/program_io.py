"""A compiled :class:`Program` as plain JSON (``qgpu compile --json``; replay files reuse it)."""

from __future__ import annotations

from compiler.machine.config import machine_from_json, machine_to_json
from compiler.machine.isa import (Barrier, Block, Branch, Exit, Guard, Imm, Instr, Jump, Op, ParamInfo, Pred, Program,
                                  Reg, sort_regs)


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
        "machine": machine_to_json(p.machine) if p.machine else None,
        "blocks": [{"index": b.index, "label": b.label, "ptx_lines": list(b.ptx_lines),
                    "cuda_lines": list(b.cuda_lines),
                    "instrs": [instr_to_json(i) for i in b.instrs],
                    "term": terminator_to_json(b.term), "serial": b.serial,
                    "temps": [_operand(d) for d in sort_regs(b.temps)]} for b in p.blocks],
    }


# --- back from JSON ------------------------------------------------------------------------------
def _operand_from(x):
    if isinstance(x, int):
        return Imm(x)
    if x.startswith("r"):
        return Reg(int(x[1:]))
    if x.startswith("p"):
        return Pred(int(x[1:]))
    raise ValueError(f"operand {x!r}")


def _guard_from(g: str | None) -> Guard | None:
    if g is None:
        return None
    return Guard(Pred(int(g.lstrip("!")[1:])), g.startswith("!"))


def _term_from(t: dict):
    kind = t["kind"]
    if kind == "jump":
        return Jump(t["target"])
    if kind == "branch":
        return Branch(_guard_from(t["guard"]), t["target"], t["fallthrough"])
    if kind == "bar.sync":
        return Barrier(t["target"])
    if kind == "exit":
        return Exit(_guard_from(t.get("guard")), t.get("fallthrough"))
    raise ValueError(f"terminator {kind!r}")


def program_from_json(d: dict) -> Program:
    blocks = []
    for b in d["blocks"]:
        instrs = [Instr(Op(i["op"]), _operand_from(i["dst"]) if "dst" in i else None,
                        tuple(_operand_from(s) for s in i["srcs"]), i.get("mod", ""), _guard_from(i.get("guard")),
                        _operand_from(i["dst2"]) if "dst2" in i else None, i.get("ptx_line"))
                  for i in b["instrs"]]
        extra = {"serial": bool(b["serial"])} if b.get("serial") else {}
        if b.get("temps"):  # files written before temporaries existed have none: every write kept
            extra["temps"] = frozenset(_operand_from(x) for x in b["temps"])
        blocks.append(Block(b["index"], instrs, _term_from(b["term"]), tuple(b["ptx_lines"]), tuple(b["cuda_lines"]),
                            b.get("label", ""), **extra))
    params = [ParamInfo(q["name"], q["type"], q["pointer"], q["unsigned"]) for q in d["params"]]
    return Program(d["kernel"], blocks, params, d["shared_words"], d["regs_used"], d["preds_used"],
                   d.get("local_words", 0), d.get("spill_words", 0), unroll=d.get("unroll", "default"),
                   shared_symbols=dict(d.get("shared_symbols", {})),
                   machine=machine_from_json(d["machine"]) if d.get("machine") else None)
