"""The model backend: a launch executed by the GPU checkpoint, one forward pass per token.

The checkpoint is loaded with plain ``transformers`` (``AutoModelForCausalLM`` and
``AutoTokenizer.from_pretrained``); no hooks, no custom code. :class:`ModelRun` feeds the
prompt, then generates greedily, one forward pass per token, with the model's own cache
(the prompt goes through the chunked DeltaNet kernel, every later token through the
recurrent one). After each step the caller can read:

* the token (a protocol word, see compiler/circuit/protocol.py);
* registers and memory **decoded** from the cache's recurrent states: each bit of a word
  is a pair of state entries (set, clear); the bit is whichever is larger, and the
  margin (1 − 2 × the largest deviation of an entry from its clean codeword, in units of the
  amplitude) must be at least ``MARGIN`` or the word is flagged as corrupt — a code too large,
  too small or between codewords. Nothing is computed from the values: the host only reassembles bits.
"""

from __future__ import annotations

import inspect
import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

import torch

from compiler.circuit.build import LAYOUT
from compiler.machine.config import machine_from_json
from compiler.circuit.protocol import prompt_tokens
from compiler.circuit.layers import VAMP
from compiler.circuit.words import REG_ROWS

if TYPE_CHECKING:
    from engine.snapshot import CacheSnapshot

MARGIN = 0.5
EXIT = -1
"""``pcs()`` value of a lane that has exited."""
"""Smallest acceptable |set − clear| of a state bit, as a fraction of a clean entry."""
DTYPES = {"float32": torch.float32, "bfloat16": torch.bfloat16}


@dataclass
class Word:
    value: int
    margin: float
    """Smallest bit margin (1.0 = clean; below MARGIN = corrupt)."""
    written: bool

    @property
    def ok(self) -> bool:
        return not self.written or self.margin >= MARGIN


ENGINES = ("fast", "hf")
"""``fast``: engine/fast.py, a generic Qwen3.5 executor that skips exact zeros (the default);
``hf``: stock ``transformers`` (``AutoModelForCausalLM``), the reference."""


class GpuModel:
    """A loaded GPU checkpoint, run by the fast engine or by stock ``transformers``."""

    def __init__(self, path: str | Path, dtype: str = "float32", device: str = "cpu", engine: str = "fast",
                 progress=lambda msg: None):
        """``device``: where the forward passes run ("cpu", or "cuda"); the state read-out is the
        same on either. ``engine``: one of ``ENGINES``."""
        from transformers import AutoTokenizer

        if engine not in ENGINES:
            raise ValueError(f"unknown engine {engine!r} (choose from {', '.join(ENGINES)})")
        self.path = Path(path)
        self.layout = json.loads((self.path / LAYOUT).read_text())
        self.machine = machine_from_json(self.layout["machine"])
        self.dtype = dtype
        self.device = torch.device(device)
        self.engine = engine
        self.tokenizer = AutoTokenizer.from_pretrained(self.path)
        self.exe = executor(self.path, engine, dtype, device, progress)
        self.model = self.exe.model
        """The loaded model: a ``transformers`` module (``hf``) or an ``engine.fast.FastModel``."""
        fmt = self.layout.get("token_format", "{}")
        """How the checkpoint's tokenizer names a circuit token (a merged model wraps the names:
        compiler/merge.py, ``TOKEN_FORMAT``)."""
        self._name = fmt.format
        head, _, tail = fmt.partition("{}")
        raw = self.tokenizer.convert_ids_to_tokens(list(range(len(self.tokenizer))))
        self.vocab = [t[len(head):len(t) - len(tail)] if t and t.startswith(head) and t.endswith(tail)
                      and len(t) > len(head) + len(tail) else t for t in raw]
        """Token id -> circuit token name (a base token of a merged model: its own text)."""

    def ids(self, names: list[str]) -> list[int]:
        """The ids of circuit tokens, by protocol name."""
        return self.tokenizer.convert_tokens_to_ids([self._name(n) for n in names])

    def start(self, program, launch, prefix: list[int] = (), after: "ModelRun | None" = None,
              context=None) -> "ModelRun":
        """A launch, read after the token ids ``prefix`` (text, in a merged model) and after the
        finished run ``after`` (its state and context carry over; its last token is fed first),
        or in the cache ``context`` of a conversation (``prefix``: its ids not fed yet). A program
        compiled for another machine than the checkpoint's is refused (LaunchError)."""
        from compiler.machine.config import check_same_machine

        check_same_machine(program.machine, self.machine, f"kernel '{program.kernel}'")
        return ModelRun(self, prompt_tokens(program, launch, self.machine), prefix=list(prefix), after=after,
                        context=context)


def executor(path: Path, engine: str, dtype: str, device: str = "cpu", progress=lambda msg: None):
    """The forward-pass runner of ``engine`` (one of ``ENGINES``) for any Qwen3.5 checkpoint."""
    return FastExecutor(path, dtype, device, progress) if engine == "fast" else HFExecutor(path, dtype, device)


class HFExecutor:
    """Stock ``transformers``: ``AutoModelForCausalLM.from_pretrained`` and its ``DynamicCache``."""

    def __init__(self, path: Path, dtype: str, device: str):
        from transformers import AutoModelForCausalLM

        self.model = AutoModelForCausalLM.from_pretrained(path, dtype=DTYPES[dtype]).eval()
        self.model.to(device)
        self.cache_arg = _cache_argument(self.model)
        self._originals: list = []
        """(weight, silenced columns, their values in the checkpoint), in the order silenced."""

    def new_cache(self):
        from transformers import DynamicCache

        return DynamicCache(config=self.model.config)

    def forward(self, ids: torch.Tensor, cache, logits_to_keep: int = 0, hidden: bool = False):
        with torch.no_grad():
            out = self.model(input_ids=ids, **{self.cache_arg: cache}, use_cache=True,
                             logits_to_keep=logits_to_keep, output_hidden_states=hidden)
        return out.logits, (list(out.hidden_states) if hidden else None)

    def recurrent_state(self, cache, layer: int) -> torch.Tensor:
        return _recurrent_state(cache, layer)

    def silence(self, layer: int, kind: str, index: int) -> bool:
        """As ``engine.fast.FastModel.silence``: zeros written into the loaded module's weights (the
        originals kept for :meth:`unsilence`). False when those weights are all zero already."""
        L = _decoder_layers(self.model)[layer]
        if kind == "neuron":
            w, cols = L.mlp.down_proj.weight, slice(index, index + 1)
        elif kind == "head" and hasattr(L, "linear_attn"):
            dv = L.linear_attn.head_v_dim
            w, cols = L.linear_attn.out_proj.weight, slice(index * dv, (index + 1) * dv)
        elif kind == "head":
            hd = L.self_attn.head_dim
            w, cols = L.self_attn.o_proj.weight, slice(index * hd, (index + 1) * hd)
        else:
            raise ValueError(f"unknown unit kind {kind!r} (neuron or head)")
        if cols.stop > w.shape[1]:
            raise ValueError(f"layer {layer} has no {kind} {index}")
        with torch.no_grad():
            if not bool(w[:, cols].any()):
                return False
            self._originals.append((w, cols, w[:, cols].clone()))
            w[:, cols] = 0
        return True

    def unsilence(self) -> None:
        with torch.no_grad():
            for w, cols, old in reversed(self._originals):
                w[:, cols] = old
        self._originals = []

    def write_recurrent_state(self, cache, layer: int, state: torch.Tensor) -> None:
        """Replace the DeltaNet state the cache holds for ``layer`` (in place, in its dtype)."""
        live = _recurrent_state(cache, layer)
        with torch.inference_mode():  # the cache may hold inference tensors
            live.copy_(state.to(live.dtype))


class FastExecutor:
    """engine/fast.py's ``FastModel`` behind the same three calls."""

    def __init__(self, path: Path, dtype: str, device: str, progress):
        from engine.fast import FastModel

        self.model = FastModel(path, dtype, device, progress)

    def new_cache(self):
        return self.model.new_cache()

    def forward(self, ids: torch.Tensor, cache, logits_to_keep: int = 0, hidden: bool = False):
        return self.model.forward(ids, cache, logits_to_keep, hidden)

    def recurrent_state(self, cache, layer: int) -> torch.Tensor:
        return self.model.recurrent_state(cache, layer)

    def write_recurrent_state(self, cache, layer: int, state: torch.Tensor) -> None:
        self.model.write_recurrent_state(cache, layer, state)

    def silence(self, layer: int, kind: str, index: int) -> bool:
        return self.model.silence(layer, kind, index)

    def unsilence(self) -> None:
        self.model.unsilence()

    def stack(self, caches: list):
        from engine.fast import FastCache

        return FastCache.stack(caches)


FORCE_CHUNK = 2048
"""Tokens per forward pass in teacher forcing, so that memory stays bounded: the 123,414 tokens
of ``tests/suite2/trial_div.cu`` in one pass would need 6.3 GB for the float32 logits alone."""


@dataclass
class ModelRun:
    gpu: GpuModel
    prompt: list[str]
    generated: list[str] = field(default_factory=list)
    margins: list[float] = field(default_factory=list)
    """Logit of the chosen token minus the runner-up, per generated token."""
    prefix: list[int] = field(default_factory=list)
    """Token ids read before the prompt (text, in a merged model)."""
    after: "ModelRun | None" = None
    """A finished run this one continues (its cache, then its pending last token)."""
    context: object = None
    """The executor cache of a conversation this launch continues (app/chat), if any."""

    def __post_init__(self) -> None:
        ids = self.gpu.ids(self.prompt)
        if self.after is not None:
            if not self.after.done:
                raise ValueError("a launch continues only a finished run")
            self.cache = self.after.cache
            ids = self.after.pending + self.prefix + ids
            self.after = None  # its cache is this run's now
        elif self.context is not None:
            self.cache, self.context = self.context, None
            ids = self.prefix + ids
        else:
            self.cache = self.gpu.exe.new_cache()
            ids = self.prefix + ids
        self._next_input = torch.tensor([ids], device=self.gpu.device)

    @property
    def pending(self) -> list[int]:
        """Token ids chosen but not yet fed (after END: END itself)."""
        return self._next_input[0].tolist()

    @property
    def done(self) -> bool:
        return bool(self.generated) and self.generated[-1] == "END"

    def step(self, hidden: bool = False) -> str:
        """One forward pass: the next token (greedy). ``hidden``: keep every layer's residual at
        the last position (``activations()``), for display."""
        out, states = self.gpu.exe.forward(self._next_input, self.cache, logits_to_keep=1, hidden=hidden)
        self.hidden = [h[0, -1].float() for h in states] if hidden else None
        top = torch.topk(out[0, -1].float(), 2)
        return self._take(int(top.indices[0]), float(top.values[0] - top.values[1]))

    def _take(self, tok_id: int, margin: float) -> str:
        """Record the greedy choice of a forward pass and make it the next input."""
        tok = self.gpu.vocab[tok_id]
        self.generated.append(tok)
        self.margins.append(margin)
        self._next_input = torch.tensor([[tok_id]], device=self.gpu.device)
        return tok

    def force(self, expected: list[str], chunk: int = FORCE_CHUNK) -> int | None:
        """Teacher forcing: feed the pending input and the ``expected`` continuation, ``chunk``
        tokens per forward pass (the chunked kernel, ~10x faster than generating; the cache
        carries the state from one pass to the next, so memory stays bounded however long the
        launch), and compare the model's greedy choice at every position with the next
        expected token.

        Returns the index of the first token the model would not have generated (None: it
        would have generated all of them). ``generated`` holds the model's choices up to and
        including that token; the cache holds the state after the expected tokens (all but the
        last, as after generating them), so the state read-out works as after ``step``."""
        ids = self.gpu.ids(expected)
        for start in range(0, len(ids), chunk):
            part = ids[start:start + chunk]
            inp = torch.cat([self._next_input, torch.tensor([part[:-1]], dtype=self._next_input.dtype,
                                                            device=self.gpu.device)], dim=1)
            out, _ = self.gpu.exe.forward(inp, self.cache, logits_to_keep=len(part))
            top = torch.topk(out[0, -len(part):].float(), 2, dim=-1)
            for i, want in enumerate(part):
                tok_id = int(top.indices[i, 0])
                self.generated.append(self.gpu.vocab[tok_id])
                self.margins.append(float(top.values[i, 0] - top.values[i, 1]))
                if tok_id != want:
                    return start + i
            self._next_input = torch.tensor([[part[-1]]], device=self.gpu.device)
        return None

    # --- state read-out -----------------------------------------------------------------------
    def _state(self, loc: dict) -> torch.Tensor:
        """The DeltaNet state (heads, dk, dv) of the layer a layout entry names, in float64."""
        return self.gpu.exe.recurrent_state(self.cache, loc["layer"])[0].double()

    def _rows(self, what: str) -> tuple[torch.Tensor, int]:
        loc = self.gpu.layout["state"][what]
        m = self.gpu.layout["state"]["heads_per_key"]
        S = self._state(loc)  # (heads, dk, dv)
        return S, loc["head"] * m

    def registers(self, lanes: range | None = None, warp: int = 0) -> dict[tuple[int, int], Word]:
        """(lane, register) -> Word of one warp, from the register file copy read by slot 0's port a
        (row 16·warp + register)."""
        S, base = self._rows("registers")
        cfg = self.gpu.machine
        keys = [(lane, r) for lane in (lanes or range(cfg.lanes)) for r in range(1, cfg.regs)]
        heads = torch.tensor([base + 2 * lane for lane, _ in keys])
        rows = torch.tensor([REG_ROWS * warp + r for _, r in keys])
        return dict(zip(keys, _words(S[heads, rows] + S[heads + 1, rows])))

    def activations(self) -> list[dict[str, list[float]]]:
        """The residual after each layer (index 0: the embedding) of the last step run with
        ``hidden=True``, split into the named groups of qgpu_layout.json that hold their channels
        there (groups share channels at different layers: ``space.alive_rows``). Read-only, for display."""
        if not self.hidden:
            raise RuntimeError("run step(hidden=True) first")
        from compiler.circuit.space import alive_rows

        table = self.gpu.layout["residual"]
        return [{g["group"]: h[g["first"]:g["first"] + g["width"]].tolist() for g in alive_rows(table, k - 1)}
                for k, h in enumerate(self.hidden)]

    def rom(self) -> dict[tuple[int, int], dict[str, int]]:
        """(block, slot) -> non-zero fields, decoded from the ROM heads' state (bit pairs; a field
        never written reads 0). Fields with a bit below the margin raise (corrupt ROM)."""
        from compiler.circuit.protocol import FIELDS
        from compiler.circuit.rom import cell as rom_cell

        m = self.gpu.layout["state"]["heads_per_key"]
        nb = self.gpu.machine.rom_blocks
        cells = [rom_cell(b, f) for b in range(nb) for f in range(len(FIELDS))]
        head = torch.tensor([j for j, _, _ in cells])
        row = torch.tensor([r for _, r, _ in cells])
        col = torch.tensor([c for _, _, c in cells])[:, None] + torch.arange(16)
        weights = torch.tensor([1 << k for k in range(8)], dtype=torch.float64)
        out: dict[tuple[int, int], dict[str, int]] = {}
        for loc in self.gpu.layout["state"]["rom"]:
            S = self._state(loc)
            pairs = S[loc["head"] * m + head[:, None], row[:, None], col].reshape(nb, len(FIELDS), 8, 2) / VAMP
            diff = pairs[..., 0] - pairs[..., 1]  # (block, field, bit)
            written = diff.abs() > MARGIN
            low = (diff.abs() > 1e-3) & ~written
            if bool(low.any()):
                b, f, _ = (int(i) for i in low.nonzero()[0])
                raise ValueError(f"ROM block {b} slot {loc['slot']} field {FIELDS[f]}: a bit below the margin")
            values = ((diff > MARGIN).double() * weights).sum(-1).long().tolist()
            for b in range(nb):
                fields = {name: v for name, v in zip(FIELDS, values[b]) if v}
                if fields:
                    out[(b, loc["slot"])] = fields
        return out

    def predicates(self, warp: int = 0) -> dict[tuple[int, int], Word]:
        """(lane, predicate) -> Word (value 0/1) of one warp, from the predicate file copy read by
        slot 0 (row ``preds·warp + p``; one value head per lane holding a one-hot pair)."""
        S, base = self._rows("predicates")
        cfg = self.gpu.machine
        out = {}
        for lane in range(cfg.lanes):
            for p in range(cfg.preds):
                out[(lane, p)] = _onehot(S[base + lane, cfg.preds * warp + p, :2], [1, 0])
        return out

    def pcs(self) -> dict[tuple[int, int], Word]:
        """(warp, lane) -> Word whose value is the block the lane runs next, or ``EXIT`` (-1);
        ``written`` is False for a lane that holds no thread. Decoded from the pc file (one value
        head per (warp, lane), a one-hot over the blocks and exit)."""
        cfg = self.gpu.machine
        m = self.gpu.layout["state"]["heads_per_key"]
        targets = list(range(cfg.rom_blocks)) + [EXIT]
        out = {}
        entries = [(w, l) for w in range(cfg.max_warps) for l in range(cfg.lanes)]
        locs = self.gpu.layout["state"]["pcs"]
        per = len(entries) // len(locs)  # value heads per pc key head (consecutive from its first)
        for k, loc in enumerate(locs):
            S = self._state(loc)
            for j, (w, l) in enumerate(entries[k * per:(k + 1) * per]):
                out[(w, l)] = _onehot(S[loc["head"] * m + j, 0, :len(targets)], targets)
        return out

    def waiting(self) -> dict[tuple[int, int], Word]:
        """(warp, lane) -> Word whose value is 1 when the lane waits at a barrier. Decoded from the
        tag file (per lane: no tag, or the release parity it waits for; a one-hot) and the parity
        file (per warp: its CTA's release parity, a one-hot pair; 0 before the first release): a
        lane waits while its tag differs from its warp's parity (compiler/circuit/barriers.py)."""
        cfg = self.gpu.machine
        m = self.gpu.layout["state"]["heads_per_key"]
        loc = self.gpu.layout["state"]["parity"]
        S = self._state(loc)
        parity = {w: _onehot(S[loc["head"] * m + w, 0, :2], [1, 0]) for w in range(cfg.max_warps)}
        entries = [(w, l) for w in range(cfg.max_warps) for l in range(cfg.lanes)]
        out = {}
        locs = self.gpu.layout["state"]["tags"]
        per = len(entries) // len(locs)  # value heads per tag key head (consecutive from its first)
        for k, loc in enumerate(locs):
            S = self._state(loc)
            for j, (w, l) in enumerate(entries[k * per:(k + 1) * per]):
                tag = _onehot(S[loc["head"] * m + j, 0, :3], [-1, 0, 1])  # -1: no tag
                r = parity[w]
                waits = tag.written and tag.value >= 0 and tag.value != r.value
                out[(w, l)] = Word(int(waits), min(tag.margin, r.margin), tag.written)
        return out

    def memory(self) -> list[Word]:
        """Every memory word, from the memory copy read by slot 0 of lane 0."""
        S, base = self._rows("memory")
        n = self.gpu.machine.mem_words
        return _words(S[base, :n] + S[base + 1, :n])

    def low_margins(self) -> list[str]:
        """Every decoded code whose read-out margin fails (too large, too small or between
        codewords), as "what: margin": memory words, registers and predicates of every warp, pcs,
        and the ROM. Empty: the state reads cleanly."""
        cfg = self.gpu.machine
        out = [f"memory word {a}: margin {w.margin:.2f}" for a, w in enumerate(self.memory()) if not w.ok]
        for warp in range(cfg.max_warps):
            out += [f"register r{r} of warp {warp} lane {lane}: margin {w.margin:.2f}"
                    for (lane, r), w in self.registers(warp=warp).items() if not w.ok]
            out += [f"predicate p{p} of warp {warp} lane {lane}: margin {w.margin:.2f}"
                    for (lane, p), w in self.predicates(warp).items() if not w.ok]
        out += [f"pc of warp {w} lane {lane}: margin {wd.margin:.2f}" for (w, lane), wd in self.pcs().items()
                if not wd.ok]
        try:
            self.rom()
        except ValueError as e:
            out.append(str(e))
        return out

    # --- snapshots (the debugger's reverse stepping, engine/snapshot.py) ----------------------
    def snapshot(self) -> "RunSnapshot":
        """The run's exact state now: the cache (everything it holds), the pending input and how
        many tokens were generated. ``restore`` brings it back; stepping on from there repeats
        the same forward passes, so it gives the same tokens and states bit for bit."""
        from engine.snapshot import capture

        return RunSnapshot(capture(self.cache), self._next_input.clone(), len(self.generated))

    def restore(self, snap: "RunSnapshot") -> None:
        """Go back to a snapshot taken from this run (later tokens are dropped)."""
        if snap.tokens > len(self.generated):
            raise ValueError(f"snapshot after {snap.tokens} tokens is ahead of this run ({len(self.generated)})")
        self.cache = snap.cache.restore()
        self._next_input = snap.next_input.clone()
        del self.generated[snap.tokens:]
        del self.margins[snap.tokens:]
        self.hidden = None


def step_together(runs: list["ModelRun"], expected: list[list[str] | None], limit: int) -> list[int | None]:
    """Generate every run to its end, the unfinished ones stepped together in one batched forward
    pass per token (the fast engine; the stock engine steps them one after the other). Each run
    must have taken its first step (its prompt). A run stops at ``END``, at ``limit`` generated
    tokens, or at the first token that differs from its ``expected`` trace (None: no check).
    Returns per run the index of its first departing token (None: none). Each run's own cache
    holds its state afterwards, as if it had been stepped alone."""
    bad: list[int | None] = [None] * len(runs)

    def finished(k: int) -> bool:
        r, want = runs[k], expected[k]
        n = len(r.generated)
        if want is not None and n and r.generated[n - 1] != (want[n - 1] if n <= len(want) else None):
            bad[k] = n - 1
            return True
        return r.done or n >= limit

    live = [k for k in range(len(runs)) if not finished(k)]
    gpu = runs[0].gpu if runs else None
    if not live:
        return bad
    if not hasattr(gpu.exe, "stack"):
        for k in live:
            while not finished(k):
                runs[k].step()
        return bad
    cache = gpu.exe.stack([runs[k].cache for k in live])
    while live:
        ids = torch.cat([runs[k]._next_input for k in live])
        logits, _ = gpu.exe.forward(ids, cache, logits_to_keep=1)
        top = torch.topk(logits[:, -1].float(), 2, dim=-1)
        for row, k in enumerate(live):
            runs[k]._take(int(top.indices[row, 0]), float(top.values[row, 0] - top.values[row, 1]))
        done = [row for row, k in enumerate(live) if finished(k)]
        if done:
            for row in done:
                runs[live[row]].cache = cache.rows([row])
            keep = [row for row in range(len(live)) if row not in done]
            cache = cache.rows(keep) if keep else None
            live = [live[row] for row in keep]
    return bad


@dataclass(frozen=True)
class RunSnapshot:
    """``ModelRun.snapshot()``: the cache, the pending input, the number of generated tokens."""

    cache: "CacheSnapshot"
    next_input: torch.Tensor
    tokens: int

    @property
    def nbytes(self) -> int:
        return self.cache.nbytes + self.next_input.numel() * self.next_input.element_size()


def _decoder_layers(model) -> torch.nn.ModuleList:
    """The decoder layers of a text-only (``model.layers``) or multimodal
    (``model.language_model.layers``) Qwen3.5 module."""
    inner = model.model
    return inner.layers if hasattr(inner, "layers") else inner.language_model.layers


def _recurrent_state(cache, layer: int) -> torch.Tensor:
    """The DeltaNet state (batch, heads, dk, dv) of ``layer`` as the cache holds it. Read from the
    layer's own ``recurrent_states``, which transformers 5.17 and 5.25 both have
    (``DynamicCache.get_recurrent_state`` is newer)."""
    states = getattr(cache.layers[layer], "recurrent_states", None)
    if not states or states.get(0) is None:
        raise RuntimeError(f"the cache holds no recurrent state for layer {layer}: "
                           "this transformers version keeps DeltaNet states elsewhere")
    return states[0]


def _cache_argument(model) -> str:
    """The name under which this transformers version's forward takes the cache: ``cache``
    (5.25) or ``past_key_values`` (5.17). Passed under the wrong name it would land in
    ``**kwargs`` unused, and every step would start from an empty state."""
    params = inspect.signature(model.forward).parameters
    for name in ("cache", "past_key_values"):
        if name in params:
            return name
    raise TypeError(f"{type(model).__name__}.forward takes no cache argument (cache / past_key_values): "
                    "this transformers version is not supported")


def _onehot(row: torch.Tensor, values: list[int]) -> Word:
    """Decode a one-hot code: the value of the largest entry. Its margin is measured both ways,
    against the nearest clean codeword (1 at that entry, 0 elsewhere): ``1 − 2·(largest
    deviation)``, so 1.0 is clean and an entry a quarter off — too large, too small, or a second
    entry rising — falls below ``MARGIN``. An all-zero row was never written."""
    x = row / VAMP
    if float(x.abs().max()) < 1e-3:
        return Word(0, 1.0, False)
    top = int(x.argmax())
    code = torch.zeros_like(x)
    code[top] = 1.0
    return Word(values[top], 1.0 - 2.0 * float((x - code).abs().max()), True)


def _word(row: torch.Tensor) -> Word:
    """Decode 32 bit pairs (set, clear) into a word: the nearest codeword per bit, (1, 0) or (0, 1)
    times ``VAMP``. The margin is measured both ways, ``1 − 2·(largest deviation of an entry from
    its codeword)``: 1.0 is clean, and a code too large, too small or between codewords by a
    quarter falls below ``MARGIN``. A row below 1e-3 everywhere was never written (reads 0)."""
    return _words(row[None])[0]


def _words(rows: torch.Tensor) -> list[Word]:
    """``_word`` of each row of ``rows`` (n, ≥ 64), computed together."""
    pairs = rows[:, :64].reshape(len(rows), 32, 2) / VAMP
    unwritten = (pairs.abs().amax(dim=(1, 2)) < 1e-3).tolist()
    bits = (pairs[..., 0] > pairs[..., 1]).to(pairs.dtype)
    dev = (pairs - torch.stack([bits, 1 - bits], dim=-1)).abs().amax(dim=(1, 2)).tolist()
    values = (bits.long() << torch.arange(32)).sum(1).tolist()
    return [Word(0, 1.0, False) if u else Word(v, 1.0 - 2.0 * d, True)
            for u, v, d in zip(unwritten, values, dev)]