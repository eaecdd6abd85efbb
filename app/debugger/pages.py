"""The compact layout's pages, in key order (``1``, ``2``, …): name -> what the key says. Which
panes a page shows is declared by the panes themselves (``Pane.PAGES``, widgets/base.py)."""

PAGES = {
    "code": "source and PTX",
    "machine": "warps and registers",
    "pipeline": "pipeline and ROM",
    "memory": "memory and diff",
    "trace": "tokens and diff",
    "probe": "the per-layer probe and diff",
}
