# Exp 4: generate() with layer_types all "linear_attention" vs [linear, full]
import torch, traceback
from transformers import Qwen3_5TextConfig, Qwen3_5ForCausalLM, DynamicCache
def mk(lt):
    return Qwen3_5ForCausalLM(Qwen3_5TextConfig(vocab_size=32, hidden_size=64, intermediate_size=128,
        num_hidden_layers=len(lt), layer_types=lt, num_attention_heads=2, num_key_value_heads=1, head_dim=16,
        linear_num_key_heads=1, linear_num_value_heads=2, linear_key_head_dim=4, linear_value_head_dim=8,
        pad_token_id=0, eos_token_id=2)).eval()
ids = torch.tensor([[1, 5, 6, 7]])
for lt in (["linear_attention", "full_attention"], ["linear_attention", "linear_attention"]):
    m = mk(lt); print("==", lt)
    try: print("  generate OK:", m.generate(ids, do_sample=False, max_new_tokens=4).tolist())
    except Exception as e: print("  generate FAILS:", type(e).__name__, "|", str(e).replace("\n", " "), "| raised at", traceback.extract_tb(e.__traceback__)[-1][:3])
    c = DynamicCache(config=m.config)
    for kw in ({}, {"position_ids": torch.arange(4)[None]}):
        try: m(input_ids=ids, cache=c, use_cache=True, **kw); print("  forward with cache", list(kw), "OK")
        except Exception as e: print("  forward with cache", list(kw), "FAILS:", type(e).__name__, str(e)[:90])
