"""``qgpu-debug``: the Textual debugger (app/debugger/, docs/debugger.md)."""

from __future__ import annotations


def entry() -> None:
    from app.debugger.cli import entry as run

    run()


if __name__ == "__main__":
    entry()
