"""The per-layer probe pane (app/debugger/probe.py computes it; `p` shows and hides it)."""

from __future__ import annotations

from rich.text import Text
from textual.reactive import reactive

from app.debugger.layout import ranges
from app.debugger.session import Frame
from app.debugger.widgets.base import Pane


class ProbePane(Pane):
    TITLE = "probe: what each layer computed"
    ID, ROW, ORDER, WIDTH, PAGES = "probe", "row-d", 0, "1fr", ("probe",)
    REPLACES = ("row-a", "row-b")
    HELP = ("For the pass that produced the current token, one row per layer: its stage (from "
            "qgpu_layout.json; 'base' for a merged model's own layers), the named residual groups it "
            "changed at the last position with their values after it (one-hot codes decoded), and "
            "the DeltaNet state rows its heads wrote (register r of lane l of warp w, memory word k, ROM "
            "block, pc or tag of a lane). Computed only while shown: the pass is run again from the "
            "exact earlier state (same token, checked). ] and [ select the next / previous layer that "
            "changed something and show it in detail: what it computes, the groups its weights read and "
            "write, every changed group's channels after it, every state row its heads wrote; past the "
            "last layer, back to all layers. p hides it.")

    selected: reactive[int | None] = reactive(None)
    """The layer shown in detail (None: every layer, one row each)."""

    def title_for(self, f: Frame) -> str:
        if f.probe is None or isinstance(f.probe, str):
            return self.TITLE
        return f"{self.TITLE} · pass {f.probe.pos} → token {f.probe.pos - 1} = {f.probe.token}"

    def draw(self, f: Frame, height: int, width: int) -> Text:
        out = Text(no_wrap=True, overflow="ellipsis")
        p = f.probe
        if p is None:
            out.append("probe off (p)", style="dim")
            return out
        if isinstance(p, str):
            out.append(p, style="yellow")
            return out
        chosen = [lp for lp in p.layers if lp.index == self.selected]
        if chosen:
            return self._detail(chosen[0], height, width)
        lines = []
        for lp in p.layers:
            line = Text()
            line.append(f"L{lp.index:<3}", style="bold")
            line.append(f"{lp.stage:<10}", style="cyan")
            if not lp.groups and not lp.writes:
                line.append("no change", style="dim")
            groups = ", ".join(f"{g}={v}" for g, v in lp.groups)
            if groups:
                line.append(groups)
            if lp.writes:
                shown = lp.writes[:6]
                more = f" +{len(lp.writes) - 6}" if len(lp.writes) > 6 else ""
                line.append(("  " if groups else "") + "state: " + ", ".join(shown) + more, style="magenta")
            lines.append(line)
        if len(lines) > height:  # fold the layers that changed nothing into one line first
            quiet = [lp.index for lp in p.layers if not lp.groups and not lp.writes]
            lines = [ln for lp, ln in zip(p.layers, lines) if lp.groups or lp.writes]
            if quiet:
                lines.append(Text(f"no change: {ranges(quiet)}", style="dim"))
        keep = lines[:height]
        if len(lines) > height:
            keep[-1] = Text(f"… {len(lines) - height + 1} more layers", style="dim")
        return Text("\n").join(keep)

    def _detail(self, lp, height: int, width: int) -> Text:
        """One layer: what it computes, its ports, each changed group's channels, its state writes."""
        lines = [Text.assemble((f"L{lp.index} ", "bold"), (lp.stage, "cyan"), ("  " + lp.doc if lp.doc else "", ""))]
        reads, writes = lp.ports
        if reads or writes:
            lines.append(Text("reads:  " + (", ".join(reads) or "-"), style="dim"))
            lines.append(Text("writes: " + (", ".join(writes) or "-"), style="dim"))
        if not lp.groups and not lp.writes:
            lines.append(Text("no change at this position", style="dim"))
        for g, v in lp.groups:
            vals = " ".join(f"{x:g}" for x in lp.values.get(g, []))
            lines.append(Text.assemble((f"{g}", "bold"), f" = {v}   ", (vals, "dim")))
        if lp.writes:
            lines.append(Text("state: " + ", ".join(lp.writes), style="magenta"))
        keep = lines[:height]
        if len(lines) > height:
            keep[-1] = Text(f"… {len(lines) - height + 1} more lines", style="dim")
        return Text("\n").join(keep)
