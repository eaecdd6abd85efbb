"""The pipeline stages (with the layers that implement them) and the ROM as the model holds it."""

from __future__ import annotations

from rich.text import Text

from compiler.circuit.protocol import TERM_SLOT, Token, encode_rom
from app.debugger.layout import STAGES, base_layers, ranges, rom_text, stage_layers
from app.debugger.session import Frame
from app.debugger.widgets.base import Pane, mask_text, window


_EXPECTED: dict[int, tuple[object, dict | str]] = {}


def _expected_rom(program, cfg) -> dict | str:
    """The ROM image the compiled program should put in the state (protocol.encode_rom)."""
    hit = _EXPECTED.get(id(program))
    if hit is not None and hit[0] is program:
        return hit[1]
    try:
        want: dict | str = encode_rom(program, cfg)
    except Exception as e:  # a program the circuit cannot hold: the prompt would have failed too
        want = str(e)
    _EXPECTED.clear()
    _EXPECTED[id(program)] = (program, want)
    return want


def block_rows(f: Frame, b: int) -> list[tuple[int, str, bool]]:
    """(slot, text, differs from the program) for block b's decoded ROM rows."""
    rom = f.rom if isinstance(f.rom, dict) else {}
    want = _expected_rom(f.kernel.program, f.kernel.cfg)
    want = want if isinstance(want, dict) else {}
    blk = f.kernel.program.blocks[b] if b < len(f.kernel.program.blocks) else None
    slots = list(range(len(blk.instrs))) if blk else []
    slots += sorted({s for (bb, s) in rom if bb == b and s != TERM_SLOT} - set(slots))
    out = []
    for s in slots + [TERM_SLOT]:
        fields = rom.get((b, s), {})
        out.append((s, rom_text(s, fields) if fields else "(empty)", fields != want.get((b, s), {})))
    return out


class PipelinePane(Pane):
    TITLE = "pipeline"
    ID, ROW, ORDER, WIDTH, PAGES = "pipeline", "row-b", 2, "1fr", ("pipeline",)
    HELP = ("The four stages of one EXEC and the layers that implement them (from the checkpoint's "
            "qgpu_layout.json; a slot's window overlaps the next one's, so a layer can serve two stages). "
            "The pass that feeds an EXEC token fetches the block's ROM rows, decodes and executes it for "
            "the active lanes and writes the lanes' next pcs; the writeback then emits one record per "
            "pass (R register, P predicate, M memory), each written into the state when it is fed. In a merged "
            "checkpoint (qgpu build --base) the base's own layers follow the GPU's: 'base'.")

    def draw(self, f: Frame, height: int, width: int) -> Text:
        layers = stage_layers(f.layout)
        s = f.step
        lines: dict[str, list[str]] = {st: [] for st in STAGES}
        if s is None or f.done:
            for st in STAGES:
                lines[st] = ["idle"]
            if f.done:
                lines["writeback"] = ["END: every thread exited"]
        else:
            fed = f.pos - 1 - s.pos
            rows = block_rows(f, s.block)
            instrs = [t for slot, t, _ in rows if slot != TERM_SLOT]
            term = next((t for slot, t, _ in rows if slot == TERM_SLOT), "")
            lanes = mask_text(s.mask, f.kernel.cfg.lanes)
            when = "next pass" if fed == 0 else f"pass {s.pos + 1}"
            lines["fetch"] = [f"{when}: B{s.block} ROM rows, w{s.warp}"]
            room = max(1, height - 7)
            lines["decode"] = instrs[:room] + ([f"+{len(instrs) - room} more"] if len(instrs) > room else [])
            lines["decode"] = lines["decode"] or ["no instructions"]
            lines["execute"] = [f"lanes {lanes}, then {term}"]
            if fed == 0:
                lines["writeback"] = ["next pass: pcs, first record"]
            else:
                # writes started: a register's lane values (S.l.x, B0.l.x), P and M records
                sent = sum(Token.parse(t).is_write for t in f.records)
                last = f.records[-1] if f.records else f.tokens[s.pos]
                lines["writeback"] = [f"{sent} write{'s' * (sent != 1)} sent, last {last}"]
        out = Text(no_wrap=True, overflow="crop")
        for st in STAGES:
            out.append(f"{st} ", style="bold")
            out.append(ranges(layers[st]) + "\n", style="dim")
            for ln in lines[st]:
                out.append(f"  {ln}\n")
        base = base_layers(f.layout)
        if base:
            out.append("base ", style="bold")
            out.append(ranges(base) + "\n", style="dim")
            out.append("  the Qwen3.5 base's layers (mute on circuit tokens)\n")
        out.rstrip()
        return out


class RomPane(Pane):
    TITLE = "ROM (decoded from the state)"
    ID, ROW, ORDER, WIDTH, PAGES = "rom", "row-a", 2, "40", ("pipeline",)
    HELP = ("The ROM rows as the model's ROM heads hold them (decoded from the DeltaNet state after the "
            "prompt, nearest codeword per bit), one line per slot: s1 = slot 1's result forwarded, ps1 "
            "its predicate. ≠ marks a row that differs from the compiled program; the current block "
            "is marked ▶.")

    def draw(self, f: Frame, height: int, width: int) -> Text:
        out = Text(no_wrap=True, overflow="crop")
        if isinstance(f.rom, str):
            out.append(f.rom, style="bold white on red")
            return out
        if not f.rom:
            out.append("empty: the prompt is not fed yet", style="dim")
            return out
        lines: list[tuple[str, str]] = []
        cur_line = 0
        for b in range(len(f.kernel.program.blocks)):
            cur = f.step is not None and f.step.block == b and not f.done
            if cur:
                cur_line = len(lines)
            for s, text, bad in block_rows(f, b):
                slot = "t" if s == TERM_SLOT else str(s)
                style = "bold white on red" if bad else ("bold" if cur else "")
                lines.append((f"{'▶' if cur else ' '}B{b:<2}.{slot} {'≠' if bad else ' '}{text}", style))
        for i in window(len(lines), cur_line, height):
            out.append(lines[i][0] + "\n", style=lines[i][1])
        out.rstrip()
        return out
