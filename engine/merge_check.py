"""``qgpu check-merge``: is a merged checkpoint's text the base's? (issue 26)

Per text position, the KL divergence KL(base ‖ merged) of the next-token distributions over the
base's vocabulary — the merged distribution is the softmax over its *whole* vocabulary restricted
to the base's ids (not renormalised), so mass moved onto circuit tokens counts against it — the
probability mass the merged model puts on circuit tokens, and whether the two greedy choices
agree. Computed in float64 from the logits of two separately loaded checkpoints (stock
``transformers`` by default); nothing here reads the circuit's layout except the base's vocabulary
size (``qgpu_layout.json`` ``merge.base_vocab``) and, for the after-launch numbers, the kernel run.

"After a launch": the merged model first generates a launch of ``kernel`` (greedy, checked
against the interpreter), then reads the same text; the base reads the text alone. The numbers
are reported whatever they are; the targets apply to plain text only.
"""

from __future__ import annotations

import json
from pathlib import Path

import torch

TARGET_KL = 1e-6
TARGET_MASS = 1e-6
DEFAULT_TEXT = Path(__file__).resolve().parents[1] / "tests" / "data" / "standin_corpus.txt"
DEFAULT_KERNEL = Path(__file__).resolve().parents[1] / "samples" / "vector_add.cu"
CHUNK = 256
"""Text positions per forward pass (the cache carries the context across chunks)."""


def _executor(path: Path, engine: str, dtype: str):
    from engine.model import executor

    return executor(path, engine, dtype)


def _logits(exe, ids: list[int], cache=None, pending: list[int] = ()) -> torch.Tensor:
    """float64 logits predicting each of ``ids``' successors (``pending``: inputs fed first, their
    predictions dropped)."""
    cache = cache if cache is not None else exe.new_cache()
    seq = list(pending) + list(ids)
    out = []
    for s in range(0, len(seq), CHUNK):
        part = seq[s:s + CHUNK]
        logits, _ = exe.forward(torch.tensor([part]), cache, logits_to_keep=len(part))
        out.append(logits[0].double())
    return torch.cat(out)[len(pending):]


def compare(lb: torch.Tensor, lm: torch.Tensor, base_vocab: int) -> dict:
    """The numbers for one stretch of text: base logits ``lb`` (positions x base vocab), merged
    logits ``lm`` (positions x merged vocab)."""
    p_log = torch.log_softmax(lb, -1)
    q_all = torch.log_softmax(lm, -1)
    q_log = q_all[:, :base_vocab]
    kl = (p_log.exp() * (p_log - q_log)).sum(-1)
    mass = q_all[:, base_vocab:].exp().sum(-1)
    agree = (lb.argmax(-1) == lm.argmax(-1)).double()
    return {"positions": int(lb.shape[0]), "kl_mean": float(kl.mean()), "kl_max": float(kl.max()),
            "circuit_mass_mean": float(mass.mean()), "circuit_mass_max": float(mass.max()),
            "greedy_agreement": float(agree.mean())}


def check_merge(base: str | Path, merged: str | Path, text: str, *, engine: str = "hf", dtype: str = "float32",
                max_tokens: int = 512, kernel: str | Path | None = DEFAULT_KERNEL, progress=lambda m: None) -> dict:
    from transformers import AutoTokenizer

    base, merged = Path(base), Path(merged)
    info = json.loads((merged / "qgpu_layout.json").read_text()).get("merge")
    if info is None:
        raise ValueError(f"{merged}: not a merged checkpoint (its qgpu_layout.json has no 'merge' entry)")
    vb = info["base_vocab"]
    ids = AutoTokenizer.from_pretrained(base)(text)["input_ids"][:max_tokens]
    mids = AutoTokenizer.from_pretrained(merged)(text)["input_ids"][:max_tokens]
    if len(ids) < 2:
        raise ValueError("the text gives fewer than 2 tokens")
    progress(f"base: {base} ({engine}, {dtype})")
    lb = _logits(_executor(base, engine, dtype), ids)
    if lb.shape[-1] != vb:
        raise ValueError(f"{base} has {lb.shape[-1]} logits, the merge was built on a base of {vb}")
    progress(f"merged: {merged} ({engine}, {dtype})")
    report = {"base": str(base), "merged": str(merged), "engine": engine, "dtype": dtype,
              "tokenization_equal": ids == mids, "text_tokens": len(ids),
              "targets": {"kl_mean": TARGET_KL, "circuit_mass_max": TARGET_MASS}}
    if kernel is None:
        lm = _logits(_executor(merged, engine, dtype), ids)
        report["text"] = compare(lb, lm, vb)
    else:
        from engine.model import GpuModel

        gpu = GpuModel(merged, dtype, engine=engine)
        report["text"] = compare(lb, _logits(gpu.exe, ids), vb)
        run = _launch(gpu, Path(kernel), progress)
        # END was generated, not yet fed: it goes in first, its prediction is not text
        lm = _logits(gpu.exe, ids, run.cache, pending=run.pending)
        report["after_launch"] = {"kernel": str(kernel), "launch_tokens": len(run.prompt) + len(run.generated),
                                  **compare(lb, lm, vb)}
    t = report["text"]
    report["ok"] = (report["tokenization_equal"] and t["kl_mean"] <= TARGET_KL
                    and t["circuit_mass_max"] <= TARGET_MASS)
    return report


def _launch(gpu, kernel: Path, progress):
    """Generate a launch of ``kernel`` (its header's arguments) on the merged model, checked
    token by token against the interpreter."""
    from app.launching import launch_for
    from compiler.circuit.protocol import trace_tokens
    from engine.interpreter import Interpreter

    k = launch_for(str(kernel), None, None, None, [], gpu.machine)
    want = trace_tokens(Interpreter(k.program, k.launch, gpu.machine).run().trace)
    run = gpu.start(k.program, k.launch)
    progress(f"launch: {kernel.name} ({len(want)} tokens)")
    while not run.done and len(run.generated) < len(want):
        tok = run.step()
        if tok != want[len(run.generated) - 1]:
            raise RuntimeError(f"the launch of {kernel} departs from the interpreter at generated token "
                               f"{len(run.generated) - 1}: {tok} (want {want[len(run.generated) - 1]})")
    if not run.done:
        raise RuntimeError(f"the launch of {kernel} did not end")
    return run


def format_report(r: dict) -> str:
    def line(name: str, d: dict) -> str:
        return (f"{name:13s} {d['positions']:5d} positions  KL mean {d['kl_mean']:.3e}  max {d['kl_max']:.3e}  "
                f"circuit mass mean {d['circuit_mass_mean']:.3e}  max {d['circuit_mass_max']:.3e}  "
                f"greedy agreement {100 * d['greedy_agreement']:.1f}%")

    out = [f"check-merge: {r['merged']} against {r['base']} ({r['engine']}, {r['dtype']}; "
           f"{r['text_tokens']} text tokens, tokenization {'equal' if r['tokenization_equal'] else 'DIFFERS'})",
           line("text", r["text"])]
    if "after_launch" in r:
        a = r["after_launch"]
        out.append(line("after launch", a) + f"  ({Path(a['kernel']).name}, {a['launch_tokens']} launch tokens)")
    t = r["targets"]
    out.append(("ok" if r["ok"] else "FAILED") + f": targets on plain text: KL mean <= {t['kl_mean']:g}, "
               f"circuit mass <= {t['circuit_mass_max']:g}, equal tokenization")
    return "\n".join(out)
