"""``qgpu-debug``: the Textual debugger. Not built yet (issue 5); this entry point says so."""

from __future__ import annotations

import sys


def entry() -> None:
    print("qgpu-debug is not built yet: the debugger needs the GPU model (issues 3-5).\n"
          "Meanwhile run kernels on the reference interpreter: qgpu run samples/dot.cu",
          file=sys.stderr)
    sys.exit(2)
