"""``qgpu-debug``: a Textual debugger that steps the GPU model one forward pass per key.

UI-free parts (unit-testable without a terminal): ``session`` (the engine driver: model or
replay backend, the interpreter beside it, breakpoints, reverse stepping), ``state`` (the
machine as decoded from the model, and its diff with the interpreter), ``replay`` (the
record/replay file), ``keymap``, ``layout`` (pipeline stages and ROM rows from the
checkpoint's layout). The Textual parts: ``app``, ``messages``, ``widgets/``, ``debugger.tcss``.
docs/debugger.md describes keys, panes and the replay file.
"""
