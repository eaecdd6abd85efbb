"""The debugger's panes, grouped by screen region: ``code`` (CUDA source, PTX), ``machine``
(warps, registers), ``pipeline`` (pipeline stages, ROM), ``data`` (memory, tokens, diff),
``probe`` (the per-layer probe), ``status`` (focus and stop line, page tabs), ``screens`` (help,
breakpoints, prompts). Each pane declares its place (``Pane.ID``, ``ROW``, ``ORDER``, ``WIDTH``,
``PAGES``, ``REPLACES``: base.py); importing this package registers them all, in this order."""

from app.debugger.widgets import code, machine, pipeline, data, probe  # noqa: F401  (registers the panes)
