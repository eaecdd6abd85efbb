# Exp 6: minimal offline word-level tokenizer for AutoTokenizer.from_pretrained(dir). Run with HF_HUB_OFFLINE=1.
import tempfile
OUT = tempfile.mkdtemp(prefix='qwen35-probe-')  # scratch output
import json, os, shutil
from tokenizers import Tokenizer, models, pre_tokenizers, decoders
from transformers import AutoTokenizer
vocab = {"<pad>": 0, "<bos>": 1, "<eos>": 2, "<unk>": 3}
for w in ["WRITE_0_2", "READ_0", "VAL_2", "EXEC_3_1"]: vocab[w] = len(vocab)
tk = Tokenizer(models.WordLevel(vocab=vocab, unk_token="<unk>"))
tk.pre_tokenizer = pre_tokenizers.WhitespaceSplit()            # split on whitespace only (keeps "WRITE_0_2" whole)
tk.decoder = decoders.WordPiece(prefix="##", cleanup=False)     # decode joins tokens with spaces
def make(d, tok_cfg, model_cfg=False):
    shutil.rmtree(d, ignore_errors=True); os.makedirs(d); tk.save(f"{d}/tokenizer.json")
    if tok_cfg is not None: json.dump(tok_cfg, open(f"{d}/tokenizer_config.json", "w"))
    if model_cfg:  # a config.json with model_type qwen3_5_text in the same folder
        from transformers import Qwen3_5TextConfig
        Qwen3_5TextConfig(vocab_size=32, hidden_size=64, num_hidden_layers=2).save_pretrained(d)
    return d
special = {"bos_token": "<bos>", "eos_token": "<eos>", "pad_token": "<pad>", "unk_token": "<unk>"}
cases = {
 "A tokenizer.json + tokenizer_config{tokenizer_class:PreTrainedTokenizerFast}": make(f"{OUT}/tokA", {"tokenizer_class": "PreTrainedTokenizerFast", **special}),
 "B same, tokenizer_class:TokenizersBackend": make(f"{OUT}/tokB", {"tokenizer_class": "TokenizersBackend", **special}),
 "C tokenizer.json only": make(f"{OUT}/tokC", None),
 "D A + config.json(qwen3_5_text)": make(f"{OUT}/tokD", {"tokenizer_class": "PreTrainedTokenizerFast", **special}, True),
 "E tokenizer_config without tokenizer_class + config.json(qwen3_5_text)": make(f"{OUT}/tokE", dict(special), True),
}
s = "<bos> WRITE_0_2 READ_0 VAL_2 bogus"
for name, d in cases.items():
    try:
        t = AutoTokenizer.from_pretrained(d)
        ids = t(s, add_special_tokens=False)["input_ids"]
        print(f"{name}\n   -> {type(t).__name__}, len={len(t)}, ids={ids}, decode={t.decode(ids)!r}, "
              f"pad/eos ids={t.pad_token_id}/{t.eos_token_id}, model={type(t.backend_tokenizer.model).__name__}")
    except Exception as e: print(f"{name}\n   -> FAILS {type(e).__name__}: {str(e)[:150]}")
t = AutoTokenizer.from_pretrained(f"{OUT}/tokA"); t.save_pretrained(f"{OUT}/tokA_resaved")
print("save_pretrained writes:", sorted(os.listdir(f"{OUT}/tokA_resaved")),
      "| reload ids:", AutoTokenizer.from_pretrained(f"{OUT}/tokA_resaved")(s, add_special_tokens=False)["input_ids"])
print("return_tensors:", t("READ_0 VAL_2", return_tensors="pt")["input_ids"])
