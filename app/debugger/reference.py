"""The reference interpreter, run beside the model for the diff view only.

It advances lazily, as far as the model has got, and keeps its state before every EXEC step,
so the diff is available at any position (forwards and backwards). Its trace, encoded by the
protocol, gives the tokens the model is expected to write.
"""

from __future__ import annotations

from compiler.circuit.protocol import step_tokens
from compiler.errors import QgpuError
from compiler.machine.config import MachineConfig
from compiler.machine.isa import Program
from engine.interpreter import ExecEvent, Interpreter
from engine.launch import Launch

from app.debugger.state import RefState, partial


class Reference:
    def __init__(self, program: Program, launch: Launch, cfg: MachineConfig):
        self.interp = Interpreter(program, launch, cfg)
        self.states: list[RefState] = [RefState.of(self.interp)]
        """states[s]: before EXEC step s (states[-1] after the last step run)."""
        self.events: list[ExecEvent] = []
        self.tokens: list[str] = []
        self.held: dict = {}
        """The register values the model holds after the last step run (``protocol.step_tokens``)."""
        self.step_start: list[int] = []
        """Token index of each step's EXEC in ``tokens``."""
        self.ended = False
        self.fault: str | None = None

    def _advance(self) -> bool:
        if self.ended or self.fault:
            return False
        try:
            ev = self.interp.step()
        except QgpuError as e:  # a fault at run time (out of bounds, deadlock, runaway)
            self.fault = e.message.splitlines()[0]
            return False
        if ev is None:
            self.ended = True
            self.tokens.append("END")
            return False
        self.step_start.append(len(self.tokens))
        self.events.append(ev)
        self.tokens += step_tokens(ev, self.held)
        self.states.append(RefState.of(self.interp))
        return True

    def token(self, i: int) -> str | None:
        """The i-th generated token the interpreter's trace has (None: its trace is shorter)."""
        while len(self.tokens) <= i and self._advance():
            pass
        return self.tokens[i] if i < len(self.tokens) else None

    def steps(self, n: int) -> int:
        """Run until at least ``n`` steps exist (or the launch ended); how many do."""
        while len(self.events) < n and self._advance():
            pass
        return len(self.events)

    def state_at(self, step: int, fed: int = 0) -> RefState | None:
        """The state the model should hold after the first ``fed`` tokens of EXEC step ``step``
        (0: the state before the step). None when the interpreter never gets there."""
        have = self.steps(step + 1)
        if step > have:
            return None
        if fed <= 0 or step == have:
            return self.states[step]
        return partial(self.states[step], self.states[step + 1], self.events[step], fed)

    def event(self, step: int) -> ExecEvent | None:
        return self.events[step] if self.steps(step + 1) > step else None
