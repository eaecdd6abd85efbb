# Exp 1: minimal text-only Qwen3.5 causal LM config; class resolution; parameter names/shapes.
import tempfile
OUT = tempfile.mkdtemp(prefix='qwen35-probe-')  # scratch output
from transformers import AutoModelForCausalLM, Qwen3_5TextConfig
cfg = Qwen3_5TextConfig(
    vocab_size=32, hidden_size=64, intermediate_size=128, num_hidden_layers=2,
    layer_types=["linear_attention", "full_attention"],
    num_attention_heads=2, num_key_value_heads=1, head_dim=16,
    linear_num_key_heads=1, linear_num_value_heads=2, linear_key_head_dim=4, linear_value_head_dim=8,
    linear_conv_kernel_dim=4, max_position_embeddings=256, tie_word_embeddings=False,
    pad_token_id=0, bos_token_id=1, eos_token_id=2)
print("model_type", cfg.model_type, "| rope_parameters", cfg.rope_parameters, "| hidden_act", cfg.hidden_act,
      "| rms_norm_eps", cfg.rms_norm_eps, "| attention_bias", cfg.attention_bias)
print("default layer_types (num_hidden_layers=8, no layer_types):", Qwen3_5TextConfig(num_hidden_layers=8).layer_types)
m = AutoModelForCausalLM.from_config(cfg)
print("AutoModelForCausalLM ->", type(m).__name__, "| attn impl", m.config._attn_implementation)
for n, p in m.named_parameters(): print(f"  {n:50s} {tuple(p.shape)} {p.dtype}")
m.save_pretrained(f"{OUT}/tiny_model")
import json; print("saved config.json keys:", sorted(json.load(open(f"{OUT}/tiny_model/config.json")).keys()))
m2 = AutoModelForCausalLM.from_pretrained(f"{OUT}/tiny_model"); print("reload ->", type(m2).__name__, m2.config.architectures)
