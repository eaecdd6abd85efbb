# Exp 3: independent float64 re-implementation of decoder layer 0 (RMSNorm(1+w) -> Gated DeltaNet -> residual ->
# RMSNorm -> SwiGLU MLP -> residual) with random weights, compared with the stock model: prefill of 70 tokens
# (chunked path, crosses the 64-token chunk) and 5 decode tokens (recurrent path) with the model's cache.
import torch, torch.nn.functional as F
from transformers import Qwen3_5TextConfig, Qwen3_5ForCausalLM, DynamicCache
torch.manual_seed(0)
cfg = Qwen3_5TextConfig(vocab_size=50, hidden_size=64, intermediate_size=96, num_hidden_layers=2,
    layer_types=["linear_attention", "full_attention"], num_attention_heads=2, num_key_value_heads=1, head_dim=16,
    linear_num_key_heads=2, linear_num_value_heads=4, linear_key_head_dim=8, linear_value_head_dim=6)
m = Qwen3_5ForCausalLM(cfg).eval()
with torch.no_grad():
    for n, p in m.named_parameters():
        if "norm" in n or n.endswith("dt_bias"): p.normal_(0, 0.3)    # make (1+w) vs w distinguishable
        elif n.endswith("A_log"): p.uniform_(-2, 1)
        else: p.normal_(0, 0.3)
L = m.model.layers[0]; la = L.linear_attn; d = lambda t: t.detach().double()
def rms(x, w, eps): return x * torch.rsqrt(x.pow(2).mean(-1, keepdim=True) + eps) * (1 + d(w))
def l2n(x): return x * torch.rsqrt((x * x).sum(-1, keepdim=True) + 1e-6)
def ref_layer(h):                              # h: (T, hidden) float64, the whole sequence from token 0
    T = h.shape[0]; nk, nv, dk, dv = 2, 4, 8, 6
    x = rms(h, L.input_layernorm.weight, cfg.rms_norm_eps)
    qkv = x @ d(la.in_proj_qkv.weight).T                         # (T, 2*nk*dk + nv*dv)
    w = d(la.conv1d.weight)[:, 0, :]                              # (C, 4); tap 3 = current token, tap 0 = t-3
    pad = torch.cat([torch.zeros(3, qkv.shape[1], dtype=qkv.dtype), qkv])
    conv = sum(pad[3 - s: 3 - s + T] * w[:, 3 - s] for s in range(4))
    conv = F.silu(conv)
    q, k, v = conv.split([nk * dk, nk * dk, nv * dv], -1)
    q = l2n(q.view(T, nk, dk)).repeat_interleave(nv // nk, 1) / dk ** 0.5   # value head h uses key head h // (nv//nk)
    k = l2n(k.view(T, nk, dk)).repeat_interleave(nv // nk, 1); v = v.view(T, nv, dv)
    beta = torch.sigmoid(x @ d(la.in_proj_b.weight).T)                         # (T, nv)
    g = -d(la.A_log).exp() * F.softplus(x @ d(la.in_proj_a.weight).T + d(la.dt_bias))
    S = torch.zeros(nv, dk, dv, dtype=torch.float64); o = []
    for t in range(T):
        S = S * g[t].exp()[:, None, None]
        S = S + k[t][:, :, None] * (beta[t][:, None] * (v[t] - torch.einsum("hkv,hk->hv", S, k[t])))[:, None, :]
        o.append(torch.einsum("hkv,hk->hv", S, q[t]))
    o = torch.stack(o)                                               # (T, nv, dv)
    z = (x @ d(la.in_proj_z.weight).T).view(T, nv, dv)
    o = o * torch.rsqrt(o.pow(2).mean(-1, keepdim=True) + cfg.rms_norm_eps) * d(la.norm.weight) * F.silu(z)  # gated RMSNorm, weight as-is
    h = h + o.reshape(T, -1) @ d(la.out_proj.weight).T
    y = rms(h, L.post_attention_layernorm.weight, cfg.rms_norm_eps); mlp = L.mlp
    return h + (F.silu(y @ d(mlp.gate_proj.weight).T) * (y @ d(mlp.up_proj.weight).T)) @ d(mlp.down_proj.weight).T, S
ids = torch.randint(0, 50, (1, 75)); P = 70
cache = DynamicCache(config=m.config)
with torch.no_grad():
    out = m(input_ids=ids[:, :P], cache=cache, use_cache=True, output_hidden_states=True)
    hs = [out.hidden_states[1][0]]
    for t in range(P, 75):
        hs.append(m(input_ids=ids[:, t:t + 1], cache=cache, use_cache=True, output_hidden_states=True).hidden_states[1][0])
got = torch.cat(hs).double(); ref, S = ref_layer(d(m.model.embed_tokens.weight)[ids[0]])
print("hidden_states[0] == embeddings:", torch.equal(out.hidden_states[0][0], m.model.embed_tokens.weight[ids[0, :P]]))
print("layer0 max|diff| prefill(chunked):", (got[:P] - ref[:P]).abs().max().item(),
      " decode(recurrent):", (got[P:] - ref[P:]).abs().max().item(), " max|ref|:", ref.abs().max().item())
print("final state max|diff|:", (cache.get_recurrent_state(0)[0].double() - S).abs().max().item(),
      "shape", tuple(cache.get_recurrent_state(0).shape))
