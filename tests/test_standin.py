"""The stand-in Qwen3.5 base model (engine/standin.py, docs/standin.md): it loads with plain
transformers, has both layer kinds, and its next-token distributions are peaked on held-out text,
unlike an untrained model of the same config."""

from __future__ import annotations

import hashlib
import json
import re

import pytest
import torch

from engine import standin

N_PREFIX, N_NEW = 16, 20
"""Greedy generation: tokens of a corpus document given, tokens generated and compared."""


@pytest.fixture(scope="session")
def base():
    """(directory, model, tokenizer) of the cached stand-in with its multimodal layout, built once
    (about 50 s on 2 CPU cores) under $QGPU_MODELS."""
    from transformers import AutoModelForCausalLM, AutoTokenizer

    out = standin.ensure_standin_base(text_only=False)
    return out, AutoModelForCausalLM.from_pretrained(out).eval(), AutoTokenizer.from_pretrained(out)


@pytest.fixture(scope="session")
def untrained(base):
    """A randomly initialised model of the same config (the comparison)."""
    from transformers import AutoModelForCausalLM

    torch.manual_seed(0)
    return AutoModelForCausalLM.from_config(base[1].config).eval()


@torch.no_grad()
def peak_and_loss(model, tok, docs: list[str]) -> tuple[float, float]:
    """Mean max next-token probability and mean cross-entropy (nats) over every position of ``docs``."""
    peak = loss = 0.0
    n = 0
    for d in docs:
        ids = tok(d, return_tensors="pt").input_ids
        logp = model(ids).logits[0, :-1].float().log_softmax(-1)
        peak += logp.amax(-1).exp().sum().item()
        loss -= logp.gather(-1, ids[0, 1:, None]).sum().item()
        n += ids.shape[1] - 1
    return peak / n, loss / n


def greedy_matches(model, tok, doc: str) -> tuple[int, str]:
    """Tokens of ``doc``'s continuation that greedy generation from its first ``N_PREFIX`` tokens
    reproduces position by position, and the generated text."""
    ids = tok(doc, return_tensors="pt").input_ids[0]
    new = model.generate(ids[None, :N_PREFIX], max_new_tokens=N_NEW, do_sample=False)[0, N_PREFIX:]
    k = min(len(new), N_NEW)
    return int((new[:k] == ids[N_PREFIX:N_PREFIX + k]).sum()), tok.decode(new, skip_special_tokens=True)


def test_loads_with_plain_transformers(base):
    out, model, tok = base
    assert type(model).__name__ == "Qwen3_5ForCausalLM"
    cfg = model.config
    assert set(cfg.layer_types) == {"linear_attention", "full_attention"}
    assert cfg.tie_word_embeddings
    assert model.lm_head.weight.data_ptr() == model.model.embed_tokens.weight.data_ptr()
    assert 1000 <= cfg.vocab_size == len(tok) <= 2000
    info = json.loads((out / standin.INFO).read_text())
    assert info["corpus_sha256"] == hashlib.sha256(standin.CORPUS.read_bytes()).hexdigest()
    assert info["steps"] == info["steps_requested"] or info["time_cap_hit"], info
    assert info["final_loss"] < 1.5, info


def test_peaked_on_held_out_text(base, untrained):
    _, model, tok = base
    _, held = standin.split_documents(standin.corpus_documents())
    peak, loss = peak_and_loss(model, tok, held)
    peak0, loss0 = peak_and_loss(untrained, tok, held)
    assert peak > 0.5 and loss < 2.0, (peak, loss)  # measured 0.78, 1.00
    assert peak0 < 0.05 and loss0 > 6.0, (peak0, loss0)  # near uniform over 1,024 tokens: 0.0054, 6.97


def test_greedy_generation_continues_corpus_text(base, untrained):
    _, model, tok = base
    train, _ = standin.split_documents(standin.corpus_documents())
    docs = [d for d in train[:40] if len(tok(d).input_ids) >= N_PREFIX + N_NEW]
    corpus_words = set(re.findall(r"[A-Za-z]+", standin.CORPUS.read_text()))
    hits, words, strange = [], 0, []
    for d in docs:
        n, text = greedy_matches(model, tok, d)
        hits.append(n)
        ws = re.findall(r"[A-Za-z]+", text)[:-1]  # the last may be cut
        words += len(ws)
        strange += [w for w in ws if w not in corpus_words]
    # almost every generated word is a corpus word: measured 0 at first; 1 ("Cs", from "C" + "s") with
    # the installs of 2026-12-06 (transformers 5.25.0, tokenizers 0.23.3, torch 2.13.0)
    assert len(strange) <= words // 50, (strange, words)
    assert sum(hits) / len(hits) >= N_NEW / 2, hits  # measured 14.2 of 20
    assert sum(greedy_matches(untrained, tok, d)[0] for d in docs) / len(docs) <= 2  # measured 0.94


def test_tokenizer_round_trips_and_is_deterministic(base):
    _, _, tok = base
    text = standin.CORPUS.read_text()[:4000] + " Zürich, 3.14 — <|im_start|>user\nhi<|im_end|>\n"
    assert tok.decode(tok(text).input_ids) == text
    for special in standin.SPECIAL_TOKENS:
        assert len(tok(special).input_ids) == 1, special
    assert len(tok("forty-two is an even number").input_ids) <= 8  # BPE merged the corpus's words
    train, _ = standin.split_documents(standin.corpus_documents())
    assert standin.train_tokenizer(train).get_vocab() == tok.get_vocab()


def test_multimodal_layout(base):
    """``text_only=False``: the same weights as a ``Qwen3_5ForConditionalGeneration`` checkpoint."""
    from safetensors import safe_open
    from transformers import AutoModelForCausalLM, Qwen3_5ForConditionalGeneration

    out, model, tok = base
    mm = out / standin.MULTIMODAL
    cfg = json.loads((mm / "config.json").read_text())
    assert cfg["model_type"] == "qwen3_5" and cfg["architectures"] == ["Qwen3_5ForConditionalGeneration"]
    assert cfg["text_config"]["layer_types"] == model.config.layer_types
    with safe_open(mm / "model.safetensors", "pt") as f:
        keys = set(f.keys())
    assert "model.language_model.embed_tokens.weight" in keys
    assert all(k.startswith(("model.language_model.", "model.visual.")) for k in keys), keys
    ids = tok("Seven plus five is", return_tensors="pt").input_ids
    with torch.no_grad():
        ref = model(ids).logits
        assert torch.equal(AutoModelForCausalLM.from_pretrained(mm)(ids).logits, ref)
        assert torch.equal(Qwen3_5ForConditionalGeneration.from_pretrained(mm)(input_ids=ids).logits, ref)


def test_training_is_deterministic_and_capped(tmp_path):
    """Two short builds with the same seed write identical weights; the time cap stops a long one."""
    quiet = lambda msg: None  # noqa: E731
    a = standin.build_standin_base(tmp_path / "a", steps=3, progress=quiet)
    b = standin.build_standin_base(tmp_path / "b", steps=3, progress=quiet)
    assert (a / "model.safetensors").read_bytes() == (b / "model.safetensors").read_bytes()
    info = json.loads((a / standin.INFO).read_text())
    assert info["steps"] == 3 and not info["time_cap_hit"]
    c = standin.build_standin_base(tmp_path / "c", steps=10_000, seconds=1.0, progress=quiet)
    info = json.loads((c / standin.INFO).read_text())
    assert info["time_cap_hit"] and 0 < info["steps"] < 10_000
