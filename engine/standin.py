"""A small, peaked stand-in for a Qwen3.5 base model (docs/standin.md).

Merging the circuit into a base model is judged by KL(base || merged), which says nothing when
the base is randomly initialised: its next-token distributions are almost uniform. This module
trains a tiny ``Qwen3_5ForCausalLM`` (both layer kinds, tied embeddings like Qwen3.5-2B) for about
a minute on CPU on ``tests/data/standin_corpus.txt``, so that its predictions are peaked, and saves
it where plain ``AutoModelForCausalLM`` / ``AutoTokenizer`` load it with no custom code.

Everything is deterministic on a given machine: a byte-level BPE tokenizer trained on the corpus,
a fixed seed and a fixed number of optimiser steps. The wall-clock budget ``seconds`` is only a
safety cap; ``standin.json`` records whether it was hit. ``ensure_standin_base()`` builds the model
once under ``$QGPU_MODELS``, keyed by the corpus, this file's source and the settings.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import math
import time
from pathlib import Path
from typing import Callable

import torch

from compiler.atomic import atomic_dir

CORPUS = Path(__file__).resolve().parents[1] / "tests" / "data" / "standin_corpus.txt"
"""Paragraphs separated by blank lines; each paragraph is one document."""
SPECIAL_TOKENS = ("<|endoftext|>", "<|im_start|>", "<|im_end|>")
EOS = SPECIAL_TOKENS[0]
VOCAB_SIZE = 1024
"""Requested vocabulary (the 256 byte symbols, the special tokens and the BPE merges)."""
HOLD_OUT_EVERY = 10
"""Every 10th document (indices 9, 19, ...) is held out of training (``split_documents``)."""

SEQ_LEN = 128
BATCH = 16
STEPS = 200
"""Optimiser steps of the default build: 46 s on 2 CPU cores (docs/standin.md)."""
LR = 3e-3
WARMUP = 10
SECONDS = 300.0
"""Default wall-clock cap of the training loop, a safety net only: the 200 steps took 46-62 s alone
on the developers' 2 cores, and a 60 s cap cut a build on a busy machine short (the tests then failed
on an untrained stand-in, which the cache kept). A build that hits it says so in ``standin.json``."""
MULTIMODAL = "multimodal"
"""Subdirectory that ``text_only=False`` writes the multimodal (``Qwen3_5ForConditionalGeneration``)
layout into."""
INFO = "standin.json"


def corpus_documents(path: Path = CORPUS) -> list[str]:
    """The corpus's paragraphs, in file order."""
    return [p.strip() for p in path.read_text(encoding="utf-8").split("\n\n") if p.strip()]


def split_documents(docs: list[str]) -> tuple[list[str], list[str]]:
    """(training documents, held-out documents): every ``HOLD_OUT_EVERY``-th one is held out."""
    held = [d for i, d in enumerate(docs) if i % HOLD_OUT_EVERY == HOLD_OUT_EVERY - 1]
    train = [d for i, d in enumerate(docs) if i % HOLD_OUT_EVERY != HOLD_OUT_EVERY - 1]
    return train, held


def train_tokenizer(docs: list[str], vocab_size: int = VOCAB_SIZE):
    """A byte-level BPE tokenizer trained on ``docs``, with Qwen's pre-tokenising regex (digits one
    by one, words with their leading space), wrapped as a ``PreTrainedTokenizerFast``. The special
    tokens take ids 0, 1, 2."""
    from tokenizers import Regex, Tokenizer, decoders, models, normalizers, pre_tokenizers, trainers
    from transformers import PreTrainedTokenizerFast
    from transformers.models.qwen3_5.tokenization_qwen3_5 import PRETOKENIZE_REGEX

    tk = Tokenizer(models.BPE())
    tk.normalizer = normalizers.NFC()
    tk.pre_tokenizer = pre_tokenizers.Sequence([
        pre_tokenizers.Split(Regex(PRETOKENIZE_REGEX), behavior="isolated"),
        pre_tokenizers.ByteLevel(add_prefix_space=False, use_regex=False)])
    tk.decoder = decoders.ByteLevel()
    trainer = trainers.BpeTrainer(vocab_size=vocab_size, special_tokens=list(SPECIAL_TOKENS),
                                  initial_alphabet=pre_tokenizers.ByteLevel.alphabet(), show_progress=False)
    tk.train_from_iterator(docs, trainer=trainer)
    return PreTrainedTokenizerFast(tokenizer_object=tk, eos_token=EOS, pad_token=EOS, unk_token=None,
                                   additional_special_tokens=list(SPECIAL_TOKENS[1:]), model_max_length=4096)


def text_config(vocab_size: int, eos_id: int):
    """The stand-in's architecture: 3 Gated DeltaNet layers then 1 full-attention layer."""
    from transformers import Qwen3_5TextConfig

    return Qwen3_5TextConfig(
        vocab_size=vocab_size, hidden_size=128, intermediate_size=384, num_hidden_layers=4,
        layer_types=["linear_attention"] * 3 + ["full_attention"],
        linear_num_key_heads=2, linear_num_value_heads=4, linear_key_head_dim=32, linear_value_head_dim=32,
        linear_conv_kernel_dim=4, num_attention_heads=2, num_key_value_heads=1, head_dim=32,
        max_position_embeddings=4096, tie_word_embeddings=True, rms_norm_eps=1e-6,
        eos_token_id=eos_id, pad_token_id=eos_id, bos_token_id=None)


def token_stream(tok, docs: list[str]) -> torch.Tensor:
    """All documents as one 1-D id tensor, each followed by the end-of-text token."""
    eos = tok.convert_tokens_to_ids(EOS)
    ids: list[int] = []
    for d in docs:
        ids += tok(d, add_special_tokens=False)["input_ids"] + [eos]
    return torch.tensor(ids, dtype=torch.long)


def _lr_factor(step: int, steps: int) -> float:
    """Linear warm-up for ``WARMUP`` steps, then cosine decay to a tenth."""
    if step < WARMUP:
        return (step + 1) / WARMUP
    t = (step - WARMUP) / max(1, steps - WARMUP)
    return 0.1 + 0.9 * 0.5 * (1 + math.cos(math.pi * t))


def train(model, stream: torch.Tensor, *, steps: int, seconds: float, seed: int,
          progress: Callable[[str], None]) -> dict:
    """AdamW on random windows of ``stream`` for ``steps`` steps or until ``seconds`` have passed,
    whichever comes first. Returns the steps run, the mean loss of the last 10 (None after none),
    the time taken and whether the time cap stopped it."""
    gen = torch.Generator().manual_seed(seed)
    opt = torch.optim.AdamW(model.parameters(), lr=LR, betas=(0.9, 0.95), weight_decay=0.01)
    sched = torch.optim.lr_scheduler.LambdaLR(opt, lambda s: _lr_factor(s, steps))
    model.train()
    losses: list[float] = []
    t0 = time.perf_counter()
    for step in range(steps):
        if time.perf_counter() - t0 >= seconds:
            progress(f"time cap of {seconds:.0f} s hit after {step} of {steps} steps")
            break
        starts = torch.randint(0, len(stream) - SEQ_LEN, (BATCH,), generator=gen)
        batch = torch.stack([stream[s:s + SEQ_LEN] for s in starts.tolist()])
        loss = model(input_ids=batch, labels=batch).loss
        loss.backward()
        torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
        opt.step()
        sched.step()
        opt.zero_grad(set_to_none=True)
        losses.append(loss.item())
        if step % 25 == 0 or step == steps - 1:
            progress(f"step {step + 1}/{steps}: loss {losses[-1]:.3f} ({time.perf_counter() - t0:.0f} s)")
    model.eval()
    last = losses[-10:]
    return {"steps": len(losses), "final_loss": round(sum(last) / len(last), 4) if last else None,
            "train_seconds": round(time.perf_counter() - t0, 2), "time_cap_hit": len(losses) < steps}


@torch.no_grad()
def held_out_stats(model, stream: torch.Tensor) -> dict:
    """Mean cross-entropy and mean max next-token probability on ``stream`` (windows of ``SEQ_LEN``)."""
    n = len(stream) // SEQ_LEN * SEQ_LEN
    batch = stream[:n].view(-1, SEQ_LEN)
    logits = model(input_ids=batch).logits[:, :-1].float()
    target = batch[:, 1:]
    loss = torch.nn.functional.cross_entropy(logits.reshape(-1, logits.shape[-1]), target.reshape(-1))
    top = logits.softmax(-1).amax(-1).mean()
    return {"held_out_loss": round(loss.item(), 4), "held_out_mean_max_prob": round(top.item(), 4)}


def write_multimodal(model, tok, out: Path) -> None:
    """The same text weights in a multimodal Qwen3.5 checkpoint's layout: a ``qwen3_5`` config with
    ``text_config``, architectures ``Qwen3_5ForConditionalGeneration``, weights named
    ``model.language_model.*``; ``lm_head.weight`` is tied to ``model.language_model.embed_tokens``
    and, as ``save_pretrained`` does for tied weights, not stored. A one-block vision tower
    (``model.visual.*``, random, never trained) is included so that
    ``Qwen3_5ForConditionalGeneration.from_pretrained`` loads it without missing weights;
    ``AutoModelForCausalLM`` loads the text part alone (a ``Qwen3_5ForCausalLM``)."""
    from transformers import Qwen3_5Config, Qwen3_5ForConditionalGeneration

    text = {k: v for k, v in model.config.to_dict().items() if k not in ("architectures", "_name_or_path")}
    vision = dict(depth=1, hidden_size=32, intermediate_size=64, num_heads=2, patch_size=16,
                  temporal_patch_size=2, spatial_merge_size=2, out_hidden_size=model.config.hidden_size,
                  num_position_embeddings=64)
    cfg = Qwen3_5Config(text_config=text, vision_config=vision, tie_word_embeddings=True,
                        architectures=["Qwen3_5ForConditionalGeneration"])
    with torch.random.fork_rng():
        torch.manual_seed(0)  # the vision tower's random weights
        mm = Qwen3_5ForConditionalGeneration(cfg)
    mm.model.language_model.load_state_dict(model.model.state_dict(), strict=True)
    mm.save_pretrained(out)
    tok.save_pretrained(out)


def build_standin_base(out_dir: str | Path, *, seed: int = 0, seconds: float = SECONDS, steps: int = STEPS,
                       text_only: bool = True, progress: Callable[[str], None] = print) -> Path:
    """Train the stand-in and write it to ``out_dir`` (atomically: a half-written directory is never
    left there). ``out_dir`` gets ``config.json``, ``model.safetensors``, the tokenizer and
    ``standin.json`` (seed, steps run, final loss, training seconds, corpus sha256, held-out
    numbers); with ``text_only=False`` also ``out_dir/multimodal`` (``write_multimodal``)."""
    out = Path(out_dir)
    threads = torch.get_num_threads()
    try:
        torch.set_num_threads(2)  # the weights depend on the summation order: train as the cache key assumes
        return _train_and_write(out, seed, seconds, steps, text_only, progress)
    finally:
        torch.set_num_threads(threads)


def _train_and_write(out: Path, seed: int, seconds: float, steps: int, text_only: bool,
                     progress: Callable[[str], None]) -> Path:
    from transformers import Qwen3_5ForCausalLM

    torch.manual_seed(seed)
    docs = corpus_documents()
    train_docs, held_docs = split_documents(docs)
    tok = train_tokenizer(train_docs)
    eos = tok.convert_tokens_to_ids(EOS)
    stream = token_stream(tok, train_docs)
    progress(f"tokenizer: {len(tok)} tokens; {len(train_docs)} training documents, {len(stream)} tokens")
    model = Qwen3_5ForCausalLM(text_config(len(tok), eos))
    info = {"seed": seed, "steps_requested": steps, "seconds_cap": seconds,
            **train(model, stream, steps=steps, seconds=seconds, seed=seed, progress=progress),
            **held_out_stats(model, token_stream(tok, held_docs)),
            "corpus_sha256": hashlib.sha256(CORPUS.read_bytes()).hexdigest(),
            "vocab_size": len(tok), "parameters": sum(p.numel() for p in model.parameters())}
    model.generation_config.eos_token_id = eos
    model.generation_config.pad_token_id = eos

    with atomic_dir(out) as tmp:
        model.save_pretrained(tmp, safe_serialization=True)
        tok.save_pretrained(tmp)
        if not text_only:
            write_multimodal(model, tok, tmp / MULTIMODAL)
        (tmp / INFO).write_text(json.dumps(info, indent=1) + "\n")
    progress(f"wrote {out}: {info['steps']} steps in {info['train_seconds']:.1f} s, final loss "
             f"{info['final_loss']}, held-out mean max prob {info['held_out_mean_max_prob']}")
    return out


def standin_base_dir(*, seed: int = 0, seconds: float = SECONDS, steps: int = STEPS, text_only: bool = True) -> Path:
    """Where ``ensure_standin_base`` keeps the stand-in with these settings: under ``$QGPU_MODELS``,
    named by a hash of the corpus, this file's source and the settings."""
    from compiler.circuit.build import models_dir

    h = hashlib.sha256(CORPUS.read_bytes())
    h.update(Path(__file__).read_bytes())
    h.update(json.dumps({"seed": seed, "seconds": seconds, "steps": steps, "text_only": text_only},
                        sort_keys=True).encode())
    return models_dir() / f"standin-{h.hexdigest()[:16]}"


def ensure_standin_base(*, seed: int = 0, seconds: float = SECONDS, steps: int = STEPS, text_only: bool = True,
                        progress: Callable[[str], None] = print) -> Path:
    """The cached stand-in with these settings, built on first use."""
    out = standin_base_dir(seed=seed, seconds=seconds, steps=steps, text_only=text_only)
    if not (out / INFO).exists():
        progress(f"building the stand-in base model in {out} (once)")
        build_standin_base(out, seed=seed, seconds=seconds, steps=steps, text_only=text_only, progress=progress)
    return out


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(prog="python -m engine.standin", description=__doc__.split("\n\n")[0])
    ap.add_argument("out", type=Path, help="output directory (replaced if it exists)")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--steps", type=int, default=STEPS)
    ap.add_argument("--seconds", type=float, default=SECONDS, help="wall-clock cap of the training loop")
    ap.add_argument("--multimodal", action="store_true",
                    help=f"also write the multimodal checkpoint layout into OUT/{MULTIMODAL}")
    a = ap.parse_args(argv)
    build_standin_base(a.out, seed=a.seed, seconds=a.seconds, steps=a.steps, text_only=not a.multimodal)


if __name__ == "__main__":
    main()
