"""The debugger's panes, grouped by screen region: ``code`` (CUDA source, PTX), ``machine``
(warps, registers), ``pipeline`` (pipeline stages, ROM), ``data`` (memory, tokens, diff),
``status`` (focus and stop line, page tabs), ``screens`` (help, breakpoints)."""
