# Exp 2: hand-set weights so a one-hot key writes a value row into the Gated DeltaNet state, then a one-hot query
# reads it back on a later token; via model(...) with the model's own cache (prefill=chunked, decode=recurrent) and generate().
import sys, torch
from transformers import Qwen3_5TextConfig, AutoModelForCausalLM, DynamicCache
DT = {"fp32": torch.float32, "bf16": torch.bfloat16}[sys.argv[1] if len(sys.argv) > 1 else "fp32"]
R, V = 4, 4                                    # rows (k_dim) and value dim
cfg = Qwen3_5TextConfig(vocab_size=32, hidden_size=64, intermediate_size=128, num_hidden_layers=2,
    layer_types=["linear_attention", "full_attention"], num_attention_heads=2, num_key_value_heads=1, head_dim=16,
    linear_num_key_heads=1, linear_num_value_heads=2, linear_key_head_dim=R, linear_value_head_dim=V,
    pad_token_id=0, bos_token_id=1, eos_token_id=2)
m = AutoModelForCausalLM.from_config(cfg).eval()
ANC, WR, VAL, RD, ISW, ISR, ISV, DUM, OUT = 0, 1, 5, 9, 13, 14, 15, 16, 20      # residual channels
WRITE = lambda r, v: 3 + 4 * r + v; READ = lambda r: 19 + r; VALT = lambda v: 23 + v
with torch.no_grad():
    for p in m.parameters(): p.zero_()        # RMSNorm weights 0 -> scale (1+0) = 1; all-zero full-attn layer adds exactly 0
    E = m.model.embed_tokens.weight           # every token: exactly 4 ones -> normalised entries = 4/sqrt(1+16e-6)
    for t in range(32): E[t, [ANC, DUM, DUM + 1, DUM + 2]] = 1
    for r in range(R):
        for v in range(V): E[WRITE(r, v)] = 0; E[WRITE(r, v), [ANC, WR + r, VAL + v, ISW]] = 1
        E[READ(r)] = 0; E[READ(r), [ANC, RD + r, ISR, DUM]] = 1
    for v in range(V): E[VALT(v)] = 0; E[VALT(v), [ANC, OUT + v, ISV, DUM]] = 1
    la = m.model.layers[0].linear_attn
    W = la.in_proj_qkv.weight                 # rows: q [0:R] | k [R:2R] | v [2R:2R+2V] (value heads 0,1)
    for j in range(R):
        W[j, RD + j] = 50; W[j, ANC] = -25            # q_j pre = +-100 -> silu -> {100, -0.0}
        W[R + j, WR + j] = 50; W[R + j, ANC] = -25    # k_j
    for j in range(V):
        W[2 * R + j, VAL + j] = 50; W[2 * R + j, ANC] = -25            # value head 0: v one-hot
        W[2 * R + V + j, VAL + (V - 1 - j)] = 50; W[2 * R + V + j, ANC] = -25  # value head 1: reversed code
    la.conv1d.weight[:, 0, -1] = 1            # depthwise conv passes only the current token (last tap)
    la.in_proj_b.weight[:, ISW] = 50; la.in_proj_b.weight[:, ANC] = -25   # beta = sigmoid(+-100) = {1, 0}
    la.A_log.fill_(-1e4)                      # exp(A_log)=0 -> g = -0 -> decay exp(g)=1 (in_proj_a = dt_bias = 0)
    la.in_proj_z.weight[:, ANC] = 25          # z = 100 -> silu(z) = 100
    la.norm.weight.fill_(1)                   # RMSNormGated weight is used as-is (init 1), not (1+w)
    for v in range(V): la.out_proj.weight[OUT + v, v] = 0.01   # value head 0 -> residual OUT channels
    for v in range(V): m.lm_head.weight[VALT(v), OUT + v] = 10
m = m.to(DT)
cache = DynamicCache(config=m.config)
writes = [(0, 2), (1, 0), (2, 3), (3, 1)]
ids = torch.tensor([[1] + [WRITE(r, v) for r, v in writes]])
out = m(input_ids=ids, cache=cache, use_cache=True)               # prefill: chunked path
S = cache.get_recurrent_state(0, state_idx=0)
print(DT, "| cache layers:", [type(l).__name__ for l in cache.layers], "| state", tuple(S.shape), S.dtype,
      "| same object as cache.layers[0].recurrent_states[0]:", S is cache.layers[0].recurrent_states[0],
      "| conv_state", tuple(cache.get_conv_state(0).shape), cache.get_conv_state(0).dtype)
print("exact zeros in state:", int((S == 0).sum()), "of", S.numel()); print("state head0 (rows=k, cols=v):\n", S[0, 0].float()); print("state head1:\n", S[0, 1].float())
ok = True
for r, v in [(1, 0), (3, 1), (0, 2)]:                            # decode: recurrent path, one token each
    o = m(input_ids=torch.tensor([[READ(r)]]), cache=cache, use_cache=True)
    tok = o.logits[0, -1].argmax().item(); ok &= tok == VALT(v); print(f"READ({r}) -> token {tok} (want VAL({v})={VALT(v)})")
o = m(input_ids=torch.tensor([[WRITE(1, 3)]]), cache=cache, use_cache=True)     # decode write overwrites row 1
o = m(input_ids=torch.tensor([[READ(1)]]), cache=cache, use_cache=True)          # read it on the next token
tok = o.logits[0, -1].argmax().item(); ok &= tok == VALT(3); print("after decode WRITE(1,3): READ(1) ->", tok, "want", VALT(3))
print("row 1 of head0/head1 now:", cache.layers[0].recurrent_states[0][0, :, 1].float().tolist())
# one prefill with writes and reads mixed (chunked path only)
seq = [1, WRITE(2, 1), READ(2), WRITE(2, 2), READ(2), READ(0)]
lg = m(input_ids=torch.tensor([seq])).logits[0].argmax(-1).tolist()
ok &= lg[2] == VALT(1) and lg[4] == VALT(2); print("prefill argmax at READ positions:", lg[2], lg[4], "want", VALT(1), VALT(2))
# plain generate(): prompt writes then READ(3); next token must be VAL(1)
g = m.generate(torch.tensor([[1, WRITE(3, 1), WRITE(0, 2), READ(3)]]), do_sample=False, max_new_tokens=3,
               pad_token_id=0, eos_token_id=None)
ok &= g[0, 4].item() == VALT(1); print("generate ->", g.tolist(), "(token 4 should be", VALT(1), ")")
print("ALL OK" if ok else "FAIL")
