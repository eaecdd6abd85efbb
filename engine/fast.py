"""The fast engine: a generic executor for Qwen3.5 text checkpoints that skips exact zeros.

It computes what ``transformers``' ``Qwen3_5ForCausalLM`` computes (modeling_qwen3_5.py is the
definition) for **any** Qwen3.5 text checkpoint: it reads ``config.json`` and the safetensors,
nothing else — no circuit layout, no token names, no machine. What makes it fast is structure
that the weights themselves show when they are loaded:

* every matrix is kept sparse (CSR): a product skips the exact-zero weights (a sum of the
  non-zero terms and zeros is the same sum; only the order of the additions may differ from a
  dense matmul, so results can differ in the last bit, never more);
* a DeltaNet value head whose key projection (or value projection) is all zero can never write
  its state, which stays exactly 0 and reads exactly 0: it is dropped (its state reads as zeros);
  a full-attention layer whose value or output projection is all zero adds exactly 0, and an MLP
  neuron with an all-zero gate, up or down weight adds exactly 0: both are dropped;
* the state decay ``exp(g)`` is skipped where ``exp(A_log)`` is 0 in float32 (then ``g = -0`` and
  ``exp(g) = 1`` exactly, for every token), and in a one-token step where ``g`` is ±0;
* a one-token step in C (engine/fast_step.c, engine/native.py: the same operations and roundings
  as the torch path, without ~2,000 small torch calls per token) updates and reads only the state
  rows its key and query address (the other rows get ``+ 0·x`` in the stock rule).

Everything else follows the stock layer operation by operation, in the same dtype at each step
(bfloat16 values are rounded where ``transformers`` rounds them). Prompts of several tokens use
``transformers``' own chunked delta rule (``torch_chunk_gated_delta_rule``) on the kept heads, as
the stock model does. Equality with the stock model is tested (tests/test_fast_engine.py): logits
within float32 tolerance and identical greedy tokens on random dense checkpoints with both layer
kinds, identical tokens and decoded state on the GPU checkpoint.

Loading streams the safetensors tensor by tensor, so peak memory is about the compacted size.
The compacted form is cached (``compact_cache_dir()``), keyed by the checkpoint's config, the
safetensors headers, file sizes and modification times, the dtype and this file's source.

Dependencies: ``scipy`` for the one-token sparse products on the CPU outside the C step (its CSR
matrix-vector product is about twice as fast as torch's here and has less per-call overhead; every
product of several rows, and every product on another device, uses torch's CSR); a C compiler for
the C step where there is one (engine/native.py; none needed otherwise).
"""

from __future__ import annotations

import hashlib
import json
import math
import os
import warnings
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import torch
import torch.nn.functional as F
from scipy.sparse._sparsetools import csr_matvec as _csr_matvec

warnings.filterwarnings("ignore", message="Sparse CSR tensor support is in beta state")
warnings.filterwarnings("ignore", message="Sparse invariant checks are implicitly disabled")

DTYPES = {"float32": torch.float32, "bfloat16": torch.bfloat16}
FORMAT = 3
"""Version of the compacted form on disk (part of the cache key)."""


# --- sparse matrices -----------------------------------------------------------------------------
class SparseMatrix:
    """``y = x @ W.T`` for a matrix ``W`` (out, in) whose exact zeros are skipped (CSR)."""

    def __init__(self, crow: torch.Tensor, col: torch.Tensor, val: torch.Tensor, shape: tuple[int, int],
                 device: torch.device):
        self.shape = shape
        self.nnz = int(val.numel())
        self.csr = (crow, col, val)
        self.device = device
        self.t = torch.sparse_csr_tensor(crow.to(device), col.to(device), val.to(device), size=shape)
        self.cpu = None
        if device.type == "cpu":  # scipy's CSR matrix-vector kernel, called without its Python wrapper
            self.cpu = (crow.numpy(), col.numpy(), val.numpy())
        self._columns: tuple[torch.Tensor, ...] | None = None

    def columns(self) -> tuple[torch.Tensor, ...]:
        """The same matrix by columns (column pointers, rows, values: int32, int32, float32), made once
        per matrix: the C step's form (engine/native.py)."""
        if self._columns is None:
            import scipy.sparse

            crow, col, val = (t.cpu().numpy() for t in self.csr)
            c = scipy.sparse.csr_matrix((val, col, crow), shape=self.shape).tocsc()
            self._columns = tuple(torch.from_numpy(np.ascontiguousarray(a.astype(d))) for a, d in
                                  ((c.indptr, np.int32), (c.indices, np.int32), (c.data, np.float32)))
        return self._columns

    @staticmethod
    def parts(w: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor]:
        """CSR parts (row pointers, columns, float32 values) of a dense matrix."""
        c = w.float().to_sparse_csr()
        return c.crow_indices().to(torch.int32), c.col_indices().to(torch.int32), c.values()

    def without_columns(self, cols: torch.Tensor) -> "SparseMatrix":
        """This matrix with every entry of the columns ``cols`` set to 0 (the CSR structure kept)."""
        crow, col, val = self.csr
        val = val.clone()
        val[torch.isin(col, cols.to(col.dtype))] = 0.0
        return SparseMatrix(crow, col, val, self.shape, self.device)

    def __call__(self, x: torch.Tensor) -> torch.Tensor:
        """``x`` (N, in) float32 -> (N, out) float32."""
        if self.cpu is not None and x.shape[0] == 1:
            y = np.zeros(self.shape[0], dtype=np.float32)
            _csr_matvec(self.shape[0], self.shape[1], *self.cpu, x.numpy().reshape(-1), y)
            return torch.from_numpy(y).view(1, -1)
        return (self.t @ x.t()).t()


# --- the layers ----------------------------------------------------------------------------------
@dataclass
class Norm:
    """Qwen3.5's zero-centred RMSNorm: ``x · rsqrt(mean(x²) + eps) · (1 + w)``, in float32."""

    scale: torch.Tensor  # 1 + w, float32
    eps: float

    def __call__(self, x: torch.Tensor) -> torch.Tensor:
        xf = x.float()
        ms = torch.linalg.vecdot(xf, xf).unsqueeze(-1) / xf.shape[-1]
        return (xf * torch.rsqrt(ms + self.eps) * self.scale).to(x.dtype)


@dataclass
class DeltaNet:
    """A Gated DeltaNet mixer restricted to what can ever be non-zero: the value heads that can write
    their state, and within every head the key channels (q/k) and value channels (v) that can be
    non-zero after the conv (the state rows and columns of the other channels stay exactly 0)."""

    heads: list[int]
    """Kept value heads (indices into the layer's ``linear_num_value_heads``)."""
    key_of: torch.Tensor
    """Per kept value head: its key head's position among the kept key heads."""
    n_key: int
    dk: int
    dv: int
    """The checkpoint's head dims (the query scale and the gated norm's mean use them)."""
    kch: torch.Tensor
    """Kept key channels (indices into dk), the same for every kept key head."""
    vch: torch.Tensor
    """Kept value channels (indices into dv), the same for every kept value head."""
    proj: SparseMatrix
    """Rows: q and k of the kept key heads and channels, then v, z of the kept value heads and
    channels, then b, a of the kept value heads."""
    conv: torch.Tensor
    """(kernel, channels) float32: the depthwise conv weights of the q, k, v rows kept."""
    neg_rate: torch.Tensor
    """``-exp(A_log)`` float32 (the stock layer's factor of ``softplus(a + dt_bias)``)."""
    dt_bias: torch.Tensor
    no_decay: bool
    """exp(A_log) is 0 in float32 for every kept head: exp(g) = 1 exactly on every token."""
    norm_w: torch.Tensor
    eps: float
    out: SparseMatrix

    @property
    def channels(self) -> int:
        return 2 * self.n_key * len(self.kch) + len(self.heads) * len(self.vch)


@dataclass
class Attention:
    """A full-attention mixer (gated output, q/k norms, partial rotary embedding, GQA)."""

    q: SparseMatrix
    k: SparseMatrix
    v: SparseMatrix
    o: SparseMatrix
    q_norm: Norm
    k_norm: Norm
    heads: int
    kv_heads: int
    head_dim: int
    inv_freq: torch.Tensor


@dataclass
class Mlp:
    """SwiGLU restricted to neurons whose gate, up and down weights are all non-zero somewhere."""

    gate_up: SparseMatrix
    """Rows: gate of the kept neurons, then up."""
    n: int
    down: SparseMatrix
    neurons: torch.Tensor
    """The kept neurons' indices in the checkpoint's intermediate dimension."""


@dataclass
class Layer:
    kind: str
    norm1: Norm
    mixer: DeltaNet | Attention | None
    """None: the mixer adds exactly 0 (nothing to run)."""
    norm2: Norm
    mlp: Mlp | None


# --- the cache -----------------------------------------------------------------------------------
@dataclass
class FastCache:
    """The state of ``batch`` sequences: per DeltaNet layer its conv window and the recurrent state of
    the kept heads; per live attention layer its keys and values; the tokens seen."""

    conv: dict[int, torch.Tensor] = field(default_factory=dict)
    """layer -> (batch, kernel - 1, channels) in the model dtype: the last inputs of the conv."""
    state: dict[int, torch.Tensor] = field(default_factory=dict)
    """layer -> (batch, kept heads, kept key channels, kept value channels) float32."""
    keys: dict[int, torch.Tensor] = field(default_factory=dict)
    values: dict[int, torch.Tensor] = field(default_factory=dict)
    seen: int = 0

    @staticmethod
    def stack(caches: list["FastCache"]) -> "FastCache":
        """One cache whose batch rows are ``caches`` (each of batch 1), in order: several sequences
        stepped together. Sequences of different lengths can be stacked only when no attention
        layer holds keys (positions matter only there; the DeltaNet state is per sequence)."""
        seen = {c.seen for c in caches}
        if len(seen) > 1 and any(c.keys for c in caches):
            raise ValueError("sequences of different lengths cannot share a batch when a full-attention layer "
                             f"is live (lengths {sorted(seen)}): that would need attention masks")
        cat = lambda d: {i: torch.cat([c.__dict__[d][i] for c in caches]) for i in caches[0].__dict__[d]}  # noqa: E731
        return FastCache(cat("conv"), cat("state"), cat("keys"), cat("values"), max(seen))

    def rows(self, keep: list[int]) -> "FastCache":
        """The cache of the batch rows ``keep`` (copies)."""
        idx = torch.tensor(keep, device=next(iter(self.state.values())).device) if self.state else torch.tensor(keep)
        pick = lambda d: {i: t.index_select(0, idx.to(t.device)) for i, t in d.items()}  # noqa: E731
        return FastCache(pick(self.conv), pick(self.state), pick(self.keys), pick(self.values), self.seen)


class FastModel:
    """A Qwen3.5 text checkpoint loaded for the fast engine."""

    def __init__(self, path: str | Path, dtype: str = "float32", device: str = "cpu",
                 progress=lambda msg: None, native: bool | None = None):
        """``native``: run one-token steps with the C step (engine/native.py); None: where it can be
        built (on the CPU), False: the torch path only, True: the C step or an error."""
        self.path = Path(path)
        self.dtype_name = dtype
        self.dtype = DTYPES[dtype]
        self.device = torch.device(device)
        raw = json.loads((self.path / "config.json").read_text())
        self.config = raw.get("text_config", raw)
        c = self.config
        if c.get("hidden_act", "silu") != "silu":
            raise ValueError(f"{self.path}: hidden_act {c.get('hidden_act')!r} is not supported (Qwen3.5 uses silu)")
        if c.get("attention_bias"):
            raise ValueError(f"{self.path}: attention_bias is not supported (Qwen3.5 has none)")
        self.eps = float(c.get("rms_norm_eps", 1e-6))
        self.layer_types = list(c["layer_types"])[: c["num_hidden_layers"]]
        self.vocab_size = int(c["vocab_size"])
        self.hidden = int(c["hidden_size"])
        parts = load_compact(self.path, self.dtype, progress)
        self._build(parts)
        self._originals: dict = {}
        """(layer, matrix attribute) -> (its owner, the checkpoint's matrix, silenced columns)."""
        self.lib = None
        """The C step library (engine/native.py) when one-token steps run in C, else None."""
        if native is not False and self.device.type == "cpu":
            from engine import native as nat

            self.lib = nat.library()
            if self.lib is None and native:
                raise RuntimeError(f"the C step is not available: {nat.why_not()}")
        elif native:
            raise ValueError("the C step runs on the CPU only")
        self._steps: list | None = None
        """Per layer: the C parameters of its mixer and MLP (built on first use, dropped when the
        weights change)."""

    @property
    def native(self) -> bool:
        """Whether one-token steps run in C (engine/native.py) rather than on the torch path."""
        return self.lib is not None

    # --- construction from the compacted parts ---------------------------------------------------
    def _sparse(self, p: dict) -> SparseMatrix:
        return SparseMatrix(p["crow"], p["col"], p["val"], tuple(p["shape"]), self.device)

    def _norm(self, w: torch.Tensor) -> Norm:
        return Norm((1.0 + w.float()).to(self.device), self.eps)

    def _build(self, parts: dict) -> None:
        dev = self.device
        self.embed_cols = parts["embed_cols"].to(dev)
        self.embed = parts["embed"].to(dev, self.dtype)
        self.final_norm = self._norm(parts["norm"])
        self.lm_head = self._sparse(parts["lm_head"])
        self.layers: list[Layer] = []
        for i, p in enumerate(parts["layers"]):
            m = p["mixer"]
            if m is None:
                mixer = None
            elif m["kind"] == "linear_attention":
                mixer = DeltaNet(m["heads"], m["key_of"].to(dev), m["n_key"], m["dk"], m["dv"], m["kch"].to(dev),
                                 m["vch"].to(dev), self._sparse(m["proj"]), m["conv"].to(dev), -m["a_log"].float().exp().to(dev), m["dt_bias"].to(dev, self.dtype),
                                 bool(m["no_decay"]), m["norm_w"].to(dev, self.dtype), self.eps, self._sparse(m["out"]))
            else:
                mixer = Attention(self._sparse(m["q"]), self._sparse(m["k"]), self._sparse(m["v"]), self._sparse(m["o"]),
                                  self._norm(m["q_norm"]), self._norm(m["k_norm"]), m["heads"], m["kv_heads"],
                                  m["head_dim"], m["inv_freq"].to(dev))
            mlp = None if p["mlp"] is None else Mlp(self._sparse(p["mlp"]["gate_up"]), p["mlp"]["n"],
                                                    self._sparse(p["mlp"]["down"]), p["mlp"]["keep"])
            self.layers.append(Layer(self.layer_types[i], self._norm(p["norm1"]), mixer, self._norm(p["norm2"]), mlp))

    @property
    def nnz(self) -> int:
        """Non-zero weights the engine multiplies (matrices only)."""
        n = self.lm_head.nnz
        for L in self.layers:
            if isinstance(L.mixer, DeltaNet):
                n += L.mixer.proj.nnz + L.mixer.out.nnz
            elif isinstance(L.mixer, Attention):
                n += sum(s.nnz for s in (L.mixer.q, L.mixer.k, L.mixer.v, L.mixer.o))
            if L.mlp:
                n += L.mlp.gate_up.nnz + L.mlp.down.nnz
        return n

    # --- silencing (fault injection, engine/faults.py) -------------------------------------------
    def silence(self, layer: int, kind: str, index: int) -> bool:
        """Zero the output of one unit of ``layer`` from the next forward pass on, exactly as zeros
        written into the checkpoint would: ``kind`` ``neuron``: SwiGLU neuron ``index`` (its
        column of ``down_proj``); ``head``: value head ``index`` of a DeltaNet layer or attention
        head ``index`` of a full-attention layer (its columns of the output projection). Returns
        False when the weights give that unit no output already (compacted away: nothing changes).
        :meth:`unsilence` undoes every silence."""
        c = self.config
        count = (c["intermediate_size"] if kind == "neuron" else c["linear_num_value_heads"]
                 if self.layer_types[layer] == "linear_attention" else c["num_attention_heads"])
        if not 0 <= index < count:
            raise ValueError(f"layer {layer} has {kind}s 0..{count - 1}, not {index}")
        L = self.layers[layer]
        if kind == "neuron":
            m, attr = L.mlp, "down"
            cols = (L.mlp.neurons == index).nonzero().flatten() if L.mlp is not None else torch.zeros(0)
        elif kind == "head" and isinstance(L.mixer, DeltaNet):
            m, attr, nv = L.mixer, "out", len(L.mixer.vch)
            pos = L.mixer.heads.index(index) if index in L.mixer.heads else None
            cols = torch.zeros(0) if pos is None else torch.arange(pos * nv, (pos + 1) * nv)
        elif kind == "head" and isinstance(L.mixer, Attention):
            m, attr, hd = L.mixer, "o", L.mixer.head_dim
            cols = torch.arange(index * hd, (index + 1) * hd)
        elif kind == "head":
            return False  # the mixer adds exactly 0: no head has an output
        else:
            raise ValueError(f"unknown unit kind {kind!r} (neuron or head)")
        if not len(cols):
            return False
        key = (layer, attr)
        if key not in self._originals:
            self._originals[key] = (m, getattr(m, attr), torch.zeros(0, dtype=torch.long))
        owner, original, gone = self._originals[key]
        gone = torch.cat([gone, cols.long()]).unique()
        self._originals[key] = (owner, original, gone)
        setattr(owner, attr, original.without_columns(gone))
        self._steps = None
        return True

    def unsilence(self) -> None:
        """Undo every :meth:`silence`: the checkpoint's weights again."""
        for (_, attr), (owner, original, _) in self._originals.items():
            setattr(owner, attr, original)
        self._originals = {}
        self._steps = None

    # --- running ---------------------------------------------------------------------------------
    def new_cache(self) -> FastCache:
        return FastCache()

    @torch.inference_mode()
    def forward(self, ids: torch.Tensor, cache: FastCache, logits_to_keep: int = 0,
                hidden: bool = False) -> tuple[torch.Tensor, list[torch.Tensor] | None]:
        """Run ``ids`` (batch, T) after what ``cache`` holds (updated in place). Returns the logits of
        the last ``logits_to_keep`` positions (0: all), (batch, kept, vocab) in the model dtype, and
        with ``hidden`` the residual stream after the embedding and after every layer (the last one
        after the final norm, as ``transformers``' ``output_hidden_states`` gives it)."""
        B, T = ids.shape
        ids = ids.to(self.device)
        h = torch.zeros(B, T, self.hidden, dtype=self.dtype, device=self.device)
        h[..., self.embed_cols] = self.embed[ids]
        states = [h] if hidden else None
        run = self._layers_native if T == 1 and self.lib is not None else self._layers_torch
        h = run(h, cache, states)
        cache.seen += T
        if logits_to_keep:
            h = h[:, -logits_to_keep:]
        h = self.final_norm(h)
        if hidden:
            states[-1] = self.final_norm(states[-1])
        logits = self._linear(self.lm_head, h)
        return logits, states

    def _layers_torch(self, h: torch.Tensor, cache: FastCache, states: list | None) -> torch.Tensor:
        for i, L in enumerate(self.layers):
            if L.mixer is not None:
                x = L.norm1(h)
                if isinstance(L.mixer, DeltaNet):
                    h = h + self._deltanet(i, L.mixer, x, cache)
                else:
                    h = h + self._attention(i, L.mixer, x, cache)
            if L.mlp is not None:
                h = h + self._mlp(L.mlp, L.norm2(h))
            if states is not None:
                states.append(h)
        return h

    def _layers_native(self, h: torch.Tensor, cache: FastCache, states: list | None) -> torch.Tensor:
        """One token through every layer, DeltaNet layers and MLPs in C (engine/native.py; the same
        values as :meth:`_layers_torch`), full-attention layers on the torch path. ``h`` (B, 1,
        hidden) in the model dtype; in C it is held as float32 (its values are the dtype's)."""
        from engine import native

        B = h.shape[0]
        if self._steps is None:
            bf16 = self.dtype == torch.bfloat16
            self._steps = [(native.deltanet(L.mixer, L.norm1, self.hidden, bf16) if isinstance(L.mixer, DeltaNet)
                            else None, None if L.mlp is None else native.mlp(L.mlp, L.norm2, self.hidden, bf16))
                           for L in self.layers]
            self._scratch = torch.empty(max([s.scratch for p in self._steps for s in p if s] + [1]))
        hf = h.float().reshape(B, self.hidden).contiguous()
        scratch = self._scratch.data_ptr()
        for i, (L, (mix, mlp)) in enumerate(zip(self.layers, self._steps)):
            if mix is not None:
                S, conv = self._native_cache(i, L.mixer, cache, B)
                self.lib.deltanet_step(mix.ref, hf.data_ptr(), B, S.data_ptr(), conv.data_ptr(), scratch)
            elif L.mixer is not None:  # full attention: torch
                x = hf.to(self.dtype).view(B, 1, self.hidden)
                hf = (x + self._attention(i, L.mixer, L.norm1(x), cache)).float().reshape(B, self.hidden).contiguous()
            if mlp is not None:
                self.lib.mlp_step(mlp.ref, hf.data_ptr(), B, scratch)
            if states is not None:
                states.append(hf.to(self.dtype).view(B, 1, self.hidden))
        return hf.to(self.dtype).view(B, 1, self.hidden)

    def _native_cache(self, i: int, m: DeltaNet, cache: FastCache, B: int) -> tuple[torch.Tensor, torch.Tensor]:
        """Layer ``i``'s recurrent state and conv window, contiguous, for the C step to update in place."""
        S, conv = cache.state.get(i), cache.conv.get(i)
        if S is None:
            S = torch.zeros(B, len(m.heads), len(m.kch), len(m.vch), dtype=torch.float32, device=self.device)
        if conv is None:
            conv = torch.zeros(B, m.conv.shape[0] - 1, m.channels, dtype=self.dtype, device=self.device)
        cache.state[i], cache.conv[i] = S.contiguous(), conv.contiguous()
        return cache.state[i], cache.conv[i]

    def _linear(self, m: SparseMatrix, x: torch.Tensor) -> torch.Tensor:
        """A bias-free linear layer: float32 products of the (dtype) inputs, rounded to the dtype."""
        y = m(x.reshape(-1, x.shape[-1]).float())
        return y.to(self.dtype).view(*x.shape[:-1], m.shape[0])

    def _mlp(self, m: Mlp, x: torch.Tensor) -> torch.Tensor:
        gu = self._linear(m.gate_up, x)
        return self._linear(m.down, F.silu(gu[..., :m.n]) * gu[..., m.n:])

    def _deltanet(self, i: int, m: DeltaNet, x: torch.Tensor, cache: FastCache) -> torch.Tensor:
        B, T, _ = x.shape
        H, nk, dk, dv, C = len(m.heads), m.n_key, len(m.kch), len(m.vch), m.channels
        p = self._linear(m.proj, x)  # (B, T, rows)
        mixed, z, b, a = torch.split(p, [C, H * dv, H, H], dim=-1)
        # causal depthwise conv over the previous kernel-1 inputs, then silu (in the model dtype)
        K = m.conv.shape[0]
        prev = cache.conv.get(i)
        if prev is None:
            prev = torch.zeros(B, K - 1, C, dtype=self.dtype, device=self.device)
        window = torch.cat([prev, mixed], dim=1)  # (B, K-1+T, C)
        cache.conv[i] = window[:, T:]
        if T == 1:
            conv = (window.float() * m.conv).sum(1, keepdim=True)
        else:
            conv = F.conv1d(window.float().transpose(1, 2), m.conv.t()[:, None, :], groups=C).transpose(1, 2)
        mixed = F.silu(conv.to(self.dtype))  # (B, T, C)
        qk, v = torch.split(mixed, [2 * nk * dk, H * dv], dim=-1)
        # q and k l2-normalised per key head in float32 (the dropped channels are exactly 0)
        qk = _l2norm(qk.reshape(B, T, 2 * nk, dk).float())
        q = qk[:, :, :nk].index_select(2, m.key_of)
        k = qk[:, :, nk:].index_select(2, m.key_of)
        v = v.reshape(B, T, H, dv)
        beta = b.sigmoid()
        g = None if m.no_decay else m.neg_rate * F.softplus(a.float() + m.dt_bias)
        S = cache.state.get(i)
        if S is None:
            S = torch.zeros(B, H, dk, dv, dtype=torch.float32, device=self.device)
        if T == 1:
            core = _recurrent_step(S, q[:, 0] / (m.dk ** 0.5), k[:, 0], v[:, 0], beta[:, 0],
                                   None if g is None else g[:, 0])[:, None]
        else:
            from transformers.models.qwen3_5.modeling_qwen3_5 import torch_chunk_gated_delta_rule

            # the stock kernel scales q by (its last dim) ** -0.5 = dk_kept ** -0.5: pre-scale so the
            # product is the checkpoint's dk ** -0.5
            gg = torch.zeros(B, T, H, dtype=torch.float32, device=self.device) if g is None else g
            core, S = torch_chunk_gated_delta_rule(q * ((dk / m.dk) ** 0.5), k, v, g=gg, beta=beta, initial_state=S,
                                                   output_final_state=True, use_qk_l2norm_in_kernel=False)
        cache.state[i] = S
        core = core.to(self.dtype)  # (B, T, H, dv kept)
        # gated RMSNorm per head as Qwen3_5RMSNormGated: the mean runs over all dv channels
        o = core.float()
        o = o * torch.rsqrt(o.pow(2).sum(-1, keepdim=True) / m.dv + m.eps)
        o = m.norm_w * o.to(self.dtype)
        o = (o * F.silu(z.reshape(B, T, H, dv).float())).to(self.dtype)
        return self._linear(m.out, o.reshape(B, T, H * dv))

    def _attention(self, i: int, m: Attention, x: torch.Tensor, cache: FastCache) -> torch.Tensor:
        B, T, _ = x.shape
        hd = m.head_dim
        qg = self._linear(m.q, x).view(B, T, m.heads, 2 * hd)
        q, gate = qg[..., :hd], qg[..., hd:].reshape(B, T, m.heads * hd)
        q = m.q_norm(q).transpose(1, 2)
        k = m.k_norm(self._linear(m.k, x).view(B, T, m.kv_heads, hd)).transpose(1, 2)
        v = self._linear(m.v, x).view(B, T, m.kv_heads, hd).transpose(1, 2)
        pos = torch.arange(cache.seen, cache.seen + T, device=self.device, dtype=torch.float32)
        freqs = pos[:, None] * m.inv_freq
        emb = torch.cat([freqs, freqs], dim=-1)
        cos, sin = emb.cos().to(self.dtype), emb.sin().to(self.dtype)
        q, k = _rotary(q, cos, sin), _rotary(k, cos, sin)
        if i in cache.keys:
            k = torch.cat([cache.keys[i], k], dim=2)
            v = torch.cat([cache.values[i], v], dim=2)
        cache.keys[i], cache.values[i] = k, v
        rep = m.heads // m.kv_heads
        k, v = k.repeat_interleave(rep, dim=1), v.repeat_interleave(rep, dim=1)
        S = k.shape[2]
        mask = None
        if T > 1:
            mask = torch.ones(T, S, dtype=torch.bool, device=self.device).tril(S - T)
        o = F.scaled_dot_product_attention(q, k, v, attn_mask=mask, scale=hd ** -0.5)
        o = o.transpose(1, 2).reshape(B, T, m.heads * hd)
        return self._linear(m.o, o * torch.sigmoid(gate))

    # --- reading the state -------------------------------------------------------------------------
    def recurrent_state(self, cache: FastCache, layer: int) -> torch.Tensor:
        """The DeltaNet state of ``layer`` as the stock cache holds it: (batch, value heads, dk, dv)
        float32, dropped heads (never written) as zeros."""
        m = self.layers[layer].mixer
        c = self.config
        nv, dk, dv = c["linear_num_value_heads"], c["linear_key_head_dim"], c["linear_value_head_dim"]
        S = cache.state.get(layer) if isinstance(m, DeltaNet) else None
        B = 1 if S is None else S.shape[0]
        full = torch.zeros(B, nv, dk, dv, dtype=torch.float32, device=self.device)
        if S is not None:
            full[:, torch.tensor(m.heads)[:, None, None], m.kch[:, None], m.vch] = S
        return full

    def write_recurrent_state(self, cache: FastCache, layer: int, full: torch.Tensor) -> None:
        """Replace the DeltaNet state of ``layer`` by ``full`` (the stock layout, as
        :meth:`recurrent_state` gives it). Entries outside the kept heads and channels must be 0:
        this engine holds no place for them (a weight that is exactly zero never reads them)."""
        m = self.layers[layer].mixer
        if not isinstance(m, DeltaNet) or layer not in cache.state:
            raise ValueError(f"layer {layer} holds no DeltaNet state in this cache")
        idx = (torch.tensor(m.heads)[:, None, None], m.kch[:, None], m.vch)
        rest = full.clone()
        rest[:, idx[0], idx[1], idx[2]] = 0
        if bool(rest.any()):
            raise ValueError(f"layer {layer}: state entries outside the heads and channels the weights use")
        with torch.inference_mode():  # the cache's tensors are inference tensors
            cache.state[layer][:] = full[:, idx[0], idx[1], idx[2]].to(cache.state[layer].dtype)

    # --- greedy generation ---------------------------------------------------------------------------
    def generate(self, ids: list[int], max_new_tokens: int, eos: int | None = None) -> list[int]:
        """Greedy continuation of ``ids`` (the prompt in one pass, then one token per pass)."""
        cache = self.new_cache()
        inp = torch.tensor([ids])
        out: list[int] = []
        for _ in range(max_new_tokens):
            logits, _ = self.forward(inp, cache, logits_to_keep=1)
            tok = int(logits[0, -1].float().argmax())
            out.append(tok)
            if tok == eos:
                break
            inp = torch.tensor([[tok]])
        return out


def _rotary(x: torch.Tensor, cos: torch.Tensor, sin: torch.Tensor) -> torch.Tensor:
    """Rotary embedding on the first ``cos.shape[-1]`` dims (the rest pass), as apply_rotary_pos_emb."""
    r = cos.shape[-1]
    xr, xp = x[..., :r], x[..., r:]
    half = torch.cat([-xr[..., r // 2:], xr[..., : r // 2]], dim=-1)
    return torch.cat([xr * cos + half * sin, xp], dim=-1)


def _l2norm(x: torch.Tensor) -> torch.Tensor:
    return x * torch.rsqrt((x * x).sum(-1, keepdim=True) + 1e-6)


def _recurrent_step(S: torch.Tensor, q: torch.Tensor, k: torch.Tensor, v: torch.Tensor, beta: torch.Tensor,
                    g: torch.Tensor | None) -> torch.Tensor:
    """One token of the gated delta rule, as torch_recurrent_gated_delta_rule computes it from the
    normalised and scaled ``q`` and the normalised ``k`` (batch, heads, dk): updates ``S`` (batch,
    heads, dk, dv) in place and returns the output (batch, heads, dv) float32."""
    B, H, dk, dv = S.shape
    if g is not None and bool(g.any()):  # g = ±0: exp(g) = 1 exactly, multiplying changes nothing
        S.mul_(g.exp()[..., None, None])
    Sb = S.view(B * H, dk, dv)
    k = k.reshape(B * H, 1, dk)
    mem = torch.bmm(k, Sb)
    delta = (v.float().reshape(B * H, 1, dv) - mem) * beta.float().reshape(B * H, 1, 1)
    Sb.baddbmm_(k.transpose(1, 2), delta)
    return torch.bmm(q.reshape(B * H, 1, dk), Sb).view(B, H, dv)


# --- loading and compacting ------------------------------------------------------------------------
def compact_cache_dir() -> Path:
    return Path(os.environ.get("QGPU_COMPACT") or Path.home() / ".cache" / "qgpu" / "compact")


def _weight_files(path: Path) -> list[Path]:
    files = sorted(path.glob("*.safetensors"))
    if not files:
        raise FileNotFoundError(f"{path}: no *.safetensors files")
    return files


def checkpoint_key(path: Path, dtype: torch.dtype) -> str:
    """What the compacted form depends on: config, safetensors headers, sizes and modification times,
    the dtype and this module's source."""
    h = hashlib.sha256()
    h.update((path / "config.json").read_bytes())
    for f in _weight_files(path):
        st = f.stat()
        with open(f, "rb") as fh:
            n = int.from_bytes(fh.read(8), "little")
            h.update(fh.read(n))
        h.update(f"{f.name}:{st.st_size}:{st.st_mtime_ns}".encode())
    h.update(str(dtype).encode())
    h.update(Path(__file__).read_bytes())
    h.update(str(FORMAT).encode())
    return h.hexdigest()[:24]


def load_compact(path: Path, dtype: torch.dtype, progress=lambda msg: None) -> dict:
    """The compacted parts of a checkpoint, from the cache or built by streaming its tensors."""
    key = checkpoint_key(path, dtype)
    cached = compact_cache_dir() / f"{key}.pt"
    if cached.exists():
        try:
            return torch.load(cached, weights_only=True)
        except Exception:  # a damaged cache file is rebuilt, never trusted
            cached.unlink(missing_ok=True)
    progress(f"compacting {path} for the fast engine (once)")
    parts = _compact(path, dtype, progress)
    cached.parent.mkdir(parents=True, exist_ok=True)
    tmp = cached.with_suffix(f".{os.getpid()}.tmp")
    torch.save(parts, tmp)
    tmp.replace(cached)
    return parts


class _Tensors:
    """The checkpoint's tensors by name, read one at a time (``model.`` or ``model.language_model.``
    prefix, as text-only and multimodal Qwen3.5 checkpoints store them), cast to ``dtype``."""

    def __init__(self, path: Path, dtype: torch.dtype):
        from safetensors import safe_open

        self.dtype = dtype
        self.where: dict[str, tuple[Path, str]] = {}
        for f in _weight_files(path):
            with safe_open(f, framework="pt") as s:
                for name in s.keys():
                    short = name.replace("model.language_model.", "model.", 1)
                    self.where[short] = (f, name)

    def has(self, name: str) -> bool:
        return name in self.where

    def __call__(self, name: str) -> torch.Tensor:
        from safetensors import safe_open

        if name not in self.where:
            raise KeyError(f"tensor {name} is missing from the checkpoint")
        f, full = self.where[name]
        with safe_open(f, framework="pt") as s:
            t = s.get_tensor(full)
        return t.to(self.dtype).float()  # values as the dtype holds them, computed in float32


def _csr(w: torch.Tensor, shape=None) -> dict:
    crow, col, val = SparseMatrix.parts(w)
    return {"crow": crow, "col": col, "val": val, "shape": list(shape or w.shape)}


def _compact(path: Path, dtype: torch.dtype, progress) -> dict:
    raw = json.loads((path / "config.json").read_text())
    c = raw.get("text_config", raw)
    W = _Tensors(path, dtype)
    E = W("model.embed_tokens.weight")
    cols = (E != 0).any(0).nonzero().squeeze(1)
    tied = c.get("tie_word_embeddings", raw.get("tie_word_embeddings", False)) or not W.has("lm_head.weight")
    parts = {"embed_cols": cols, "embed": E[:, cols].clone(), "norm": W("model.norm.weight"),
             "lm_head": _csr(E if tied else W("lm_head.weight")), "layers": []}
    del E
    n = c["num_hidden_layers"]
    for i, kind in enumerate(list(c["layer_types"])[:n]):
        progress(f"layer {i + 1}/{n}")
        pre = f"model.layers.{i}."
        layer = {"norm1": W(pre + "input_layernorm.weight"), "norm2": W(pre + "post_attention_layernorm.weight"),
                 "mixer": _compact_deltanet(W, pre + "linear_attn.", c) if kind == "linear_attention"
                 else _compact_attention(W, pre + "self_attn.", c),
                 "mlp": _compact_mlp(W, pre + "mlp.")}
        parts["layers"].append(layer)
    return parts


def _compact_deltanet(W: _Tensors, pre: str, c: dict) -> dict | None:
    nk, nv = c["linear_num_key_heads"], c["linear_num_value_heads"]
    dk, dv = c["linear_key_head_dim"], c["linear_value_head_dim"]
    per = nv // nk
    qkv, conv = W(pre + "in_proj_qkv.weight"), W(pre + "conv1d.weight")[:, 0, :]
    live = (qkv != 0).any(1) & (conv != 0).any(1)  # a channel that can be non-zero after the conv
    kd = nk * dk
    q_live, k_live = live[:kd].view(nk, dk), live[kd:2 * kd].view(nk, dk)
    v_live = live[2 * kd:].view(nv, dv)
    heads = [h for h in range(nv) if k_live[h // per].any() and v_live[h].any()]
    if not heads:
        return None  # no head can ever write its state: the mixer outputs exactly 0
    keys = sorted({h // per for h in heads})
    kch = (q_live[keys] | k_live[keys]).any(0).nonzero().squeeze(1)
    vch = v_live[heads].any(0).nonzero().squeeze(1)
    krows = torch.cat([k * dk + kch for k in keys])
    vrows = torch.cat([h * dv + vch for h in heads])
    hidx = torch.tensor(heads)
    conv_rows = torch.cat([krows, kd + krows, 2 * kd + vrows])
    proj = torch.cat([qkv[conv_rows], W(pre + "in_proj_z.weight")[vrows], W(pre + "in_proj_b.weight")[hidx],
                      W(pre + "in_proj_a.weight")[hidx]])
    a_log = W(pre + "A_log")[hidx]
    return {"kind": "linear_attention", "heads": heads, "key_of": torch.tensor([keys.index(h // per) for h in heads]),
            "n_key": len(keys), "dk": dk, "dv": dv, "kch": kch, "vch": vch, "proj": _csr(proj),
            "conv": conv[conv_rows].t().contiguous(), "a_log": a_log, "dt_bias": W(pre + "dt_bias")[hidx],
            "no_decay": bool((a_log.exp() == 0).all()), "norm_w": W(pre + "norm.weight")[vch],
            "out": _csr(W(pre + "out_proj.weight")[:, vrows])}


def _compact_attention(W: _Tensors, pre: str, c: dict) -> dict | None:
    v, o = W(pre + "v_proj.weight"), W(pre + "o_proj.weight")
    if not v.any() or not o.any():
        return None  # values or output all zero: the layer adds exactly 0
    hd = c.get("head_dim") or c["hidden_size"] // c["num_attention_heads"]
    rope = c.get("rope_parameters") or {"rope_theta": c.get("rope_theta", 10000.0),
                                        "partial_rotary_factor": c.get("partial_rotary_factor", 1.0)}
    if rope.get("rope_type", "default") != "default":
        raise ValueError(f"rope_type {rope['rope_type']!r} is not supported by the fast engine")
    dim = int(hd * rope.get("partial_rotary_factor", 1.0))
    inv_freq = 1.0 / (rope["rope_theta"] ** (torch.arange(0, dim, 2, dtype=torch.int64).float() / dim))
    return {"kind": "full_attention", "q": _csr(W(pre + "q_proj.weight")), "k": _csr(W(pre + "k_proj.weight")),
            "v": _csr(v), "o": _csr(o), "q_norm": W(pre + "q_norm.weight"), "k_norm": W(pre + "k_norm.weight"),
            "heads": c["num_attention_heads"], "kv_heads": c["num_key_value_heads"], "head_dim": hd,
            "inv_freq": inv_freq}


def _compact_mlp(W: _Tensors, pre: str) -> dict | None:
    gate, up, down = W(pre + "gate_proj.weight"), W(pre + "up_proj.weight"), W(pre + "down_proj.weight")
    keep = ((gate != 0).any(1) & (up != 0).any(1) & (down != 0).any(0)).nonzero().squeeze(1)
    if keep.numel() == 0:
        return None
    return {"gate_up": _csr(torch.cat([gate[keep], up[keep]])), "n": int(keep.numel()), "down": _csr(down[:, keep]),
            "keep": keep}


def model_parameters(path: str | Path) -> int:
    """Parameter count of the dense checkpoint (from the safetensors headers)."""
    total = 0
    for f in _weight_files(Path(path)):
        with open(f, "rb") as fh:
            hdr = json.loads(fh.read(int.from_bytes(fh.read(8), "little")))
        total += sum(math.prod(v["shape"]) for k, v in hdr.items() if k != "__metadata__")
    return total
