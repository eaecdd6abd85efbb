"""What produces the tokens: the GPU model (one forward pass each) or a replay file.

``ModelBackend`` drives ``engine.model.ModelRun``. Reverse stepping restores an exact earlier
state: keyframes (``ModelRun.snapshot``: the whole cache, sparse, ~1-2 MB on the 3-instruction
machine) every ``every`` tokens, plus the snapshots taken while re-executing, and then
re-executes the recorded tokens from the keyframe — feeding the same token ids gives the same
state bit for bit, and every re-executed token is checked against the recorded one. When the
keyframes exceed ``budget`` bytes every other one is dropped (and ``every`` doubles), so a long
launch costs bounded memory and at most ``every - 1`` forward passes per step back.

``ReplayBackend`` reads a recorded session (app/debugger/replay.py): tokens and decoded states,
no model.
"""

from __future__ import annotations

from collections import OrderedDict
from typing import Protocol

from engine.faults import inject_model

from app.debugger.state import MachineState


class NondeterminismError(RuntimeError):
    """Re-executing recorded tokens from a keyframe gave a different token (must never happen)."""


class Backend(Protocol):
    kind: str
    label: str
    prompt: list[str]

    @property
    def pos(self) -> int:
        """Forward passes done = tokens generated; the state reflects all but the last token."""

    def forward(self) -> tuple[str, float] | None:
        """One forward pass; (token, logit margin), or None when there is nothing further."""

    def seek(self, pos: int, history: list[str]) -> None:
        """Restore the exact state after ``pos`` passes (``history``: the tokens seen so far)."""

    def state(self, warps: int) -> MachineState: ...

    def rom(self) -> dict[tuple[int, int], dict[str, int]]: ...


class Keyframes:
    """Snapshots by position: permanent ones every ``every`` tokens (thinned to fit ``budget``),
    and a few recent ones (least recently used dropped first)."""

    def __init__(self, every: int = 4, budget: int = 512 << 20, recent: int = 24):
        self.every, self.budget, self.recent_max = every, budget, recent
        self.perm: dict[int, object] = {}
        self.recent: OrderedDict[int, object] = OrderedDict()

    def wants(self, pos: int) -> bool:
        return pos <= 1 or pos % self.every == 0

    def put(self, pos: int, snap, permanent: bool) -> None:
        if permanent:
            self.perm[pos] = snap
            if self.nbytes > self.budget:
                self.every *= 2
                self.perm = {p: s for p, s in self.perm.items() if p <= 1 or p % self.every == 0}
        else:
            self.recent[pos] = snap
            self.recent.move_to_end(pos)
            while len(self.recent) > self.recent_max:
                self.recent.popitem(last=False)

    def best(self, pos: int):
        """The snapshot at the largest position <= pos."""
        cands = [p for p in list(self.perm) + list(self.recent) if p <= pos]
        p = max(cands)
        if p in self.recent:
            self.recent.move_to_end(p)
            return self.recent[p]
        return self.perm[p]

    def drop_after(self, pos: int) -> None:
        """Forget the snapshots past ``pos`` (the launch changed there)."""
        self.perm = {p: s for p, s in self.perm.items() if p <= pos}
        for p in [p for p in self.recent if p > pos]:
            del self.recent[p]

    @property
    def nbytes(self) -> int:
        return sum(s.nbytes for s in self.perm.values())


class ModelBackend:
    kind = "model"

    def __init__(self, gpu, program, launch, every: int = 4, budget: int = 512 << 20, run=None):
        """``run``: a launch already started elsewhere (the chat's, inside its conversation)."""
        self.gpu = gpu
        self.run = run or gpu.start(program, launch)
        self.prompt = self.run.prompt
        self.label = f"model {gpu.path.name} ({gpu.dtype})"
        self.layout = gpu.layout
        self.keyframes = Keyframes(every, budget)
        self.keyframes.put(0, self.run.snapshot(), True)
        self._rom = None
        self.faults: dict[int, list] = {}
        """Position -> the faults (engine/faults.py) written into the state before the pass that
        starts there. Keyframes always hold the state *before* the faults of their position;
        ``_applied`` says whether the current state already has the current position's."""
        self._applied = False
        self._silenced: list = []
        """The silenced units (engine/faults.py, ``LN.nK`` / ``LN.hK``) the weights hold now."""
        if hasattr(gpu.exe, "unsilence"):
            gpu.exe.unsilence()  # a new launch (or a reloaded kernel) starts on the checkpoint's weights

    def _sync_weights(self) -> None:
        """Silence exactly the units of the faults at or before the current position: a pass
        re-executed before a unit's fault (reverse stepping, a keyframe) runs the checkpoint's
        weights, one after it runs them with that unit silenced."""
        want = sorted((p, f.layer, f.kind, f.unit) for p, fs in self.faults.items() if p <= self.pos
                      for f in fs if f.silences)
        if want != self._silenced:
            self.gpu.exe.unsilence()
            for _, layer, kind, unit in want:
                self.gpu.exe.silence(layer, kind, unit)
            self._silenced = want

    @property
    def pos(self) -> int:
        return len(self.run.generated)

    def forward(self, keep: bool = False) -> tuple[str, float] | None:
        if self.run.done:
            return None
        self._sync_weights()
        if self.pos in self.faults and not self._applied:
            for f in self.faults[self.pos]:
                inject_model(self.run, f)
        tok = self.run.step()
        self._applied = False
        if self.keyframes.wants(self.pos) or keep:
            self.keyframes.put(self.pos, self.run.snapshot(), self.keyframes.wants(self.pos))
        return tok, self.run.margins[-1]

    def seek(self, pos: int, history: list[str]) -> None:
        if pos == self.pos:
            return
        if pos < self.pos:
            self.run.restore(self.keyframes.best(pos))
            self._applied = False
        while self.pos < pos:
            want = history[self.pos] if self.pos < len(history) else None
            got = self.forward(keep=True)
            if got is None or (want is not None and got[0] != want):
                raise NondeterminismError(
                    f"re-executing token {self.pos - 1} gave {got[0] if got else 'nothing'}, "
                    f"recorded {want}: the model is not deterministic here")

    def probe(self, history: list[str]):
        """Run the pass that produced the current token again, keeping every layer's residual
        and the DeltaNet states before and after it (app/debugger/probe.py). Exact: it starts
        from the state before that pass (a keyframe and re-execution) and must give the same token."""
        from app.debugger.probe import describe

        pos = self.pos
        if pos < 1:
            return None
        self.seek(pos - 1, history)
        self._sync_weights()
        if pos - 1 in self.faults and not self._applied:  # a fault is not the pass's doing
            for f in self.faults[pos - 1]:
                inject_model(self.run, f)
            self._applied = True
        before = self._deltanet_states()
        tok = self.run.step(hidden=True)
        self._applied = False
        if tok != history[pos - 1]:
            raise NondeterminismError(f"probing token {pos - 1} gave {tok}, recorded {history[pos - 1]}")
        after = self._deltanet_states()
        hidden = self.run.hidden
        self.run.hidden = None
        return describe(self.layout, self.gpu.machine, pos, tok, hidden, before, after)

    def _deltanet_states(self) -> dict:
        """Layer -> its DeltaNet state (value heads, dk, dv), for the GPU's layers that have one (a
        full-attention layer keeps keys and values instead: left out)."""
        out = {}
        for L in range(len(self.layout.get("layers", []))):
            try:
                out[L] = self.gpu.exe.recurrent_state(self.run.cache, L)[0].clone()
            except RuntimeError:
                continue
        return out

    def inject(self, fault) -> tuple[int, int]:
        """Write ``fault`` into the state now, before the next pass, and keep it: re-executing
        through this position (reverse stepping, restart) writes it again. Everything after this
        position is forgotten (the future may differ). Returns (old, new)."""
        pos = self.pos
        if not self._applied:  # the state after pos passes, before the faults of pos
            self.keyframes.put(pos, self.run.snapshot(), self.keyframes.wants(pos))
        self.keyframes.drop_after(pos)
        self.faults = {p: fs for p, fs in self.faults.items() if p <= pos}
        if self._applied:
            old_new = inject_model(self.run, fault)
        else:
            for f in self.faults.get(pos, []):
                inject_model(self.run, f)
            old_new = inject_model(self.run, fault)
        self.faults.setdefault(pos, []).append(fault)
        self._applied = True
        self._sync_weights()
        return old_new

    def clear_faults(self) -> int | None:
        """Forget every fault; the position of the earliest (where the history must be cut), or None."""
        if not self.faults:
            return None
        first = min(self.faults)
        self.faults = {}
        self._sync_weights()
        self.keyframes.drop_after(first)
        self.run.restore(self.keyframes.best(first))
        self._applied = False
        return first

    def state(self, warps: int) -> MachineState:
        return MachineState.decode(self.run, warps)

    def rom(self) -> dict[tuple[int, int], dict[str, int]]:
        """The ROM rows decoded from the state (written by the prompt; read once)."""
        if self._rom is None:
            if self.pos < 1:
                return {}
            self._rom = self.run.rom()
        return self._rom


class ReplayBackend:
    """A recorded session: every token and decoded state of its launch, no model."""

    kind = "replay"

    def __init__(self, rec):
        self.rec = rec
        self.prompt = rec.prompt
        self.label = f"replay {rec.name}"
        self.layout = rec.layout
        self._pos = 0

    @property
    def pos(self) -> int:
        return self._pos

    def forward(self) -> tuple[str, float] | None:
        if self._pos >= len(self.rec.tokens):
            return None
        self._pos += 1
        return self.rec.tokens[self._pos - 1], self.rec.margins[self._pos - 1]

    def seek(self, pos: int, history: list[str]) -> None:
        self._pos = max(0, min(pos, len(self.rec.tokens)))

    def state(self, warps: int) -> MachineState:
        return self.rec.states[self._pos - 1] if self._pos else self.rec.empty_state

    def rom(self) -> dict[tuple[int, int], dict[str, int]]:
        return self.rec.rom
