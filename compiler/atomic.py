"""Write a directory all at once: a half-written directory is never left at its final path."""

from __future__ import annotations

import shutil
import tempfile
from contextlib import contextmanager
from pathlib import Path
from typing import Iterator


@contextmanager
def atomic_dir(out: str | Path) -> Iterator[Path]:
    """Yield an empty temporary directory beside ``out``. When the block ends normally it replaces
    ``out`` (one rename); when it raises, it is removed and ``out`` is left as it was."""
    out = Path(out)
    out.parent.mkdir(parents=True, exist_ok=True)
    tmp = Path(tempfile.mkdtemp(prefix=out.name + ".", dir=out.parent))
    tmp.chmod(0o755)  # mkdtemp makes it private; a model directory is read by others too
    try:
        yield tmp
        if out.exists():
            shutil.rmtree(out)
        tmp.rename(out)
    finally:
        if tmp.exists():
            shutil.rmtree(tmp, ignore_errors=True)
