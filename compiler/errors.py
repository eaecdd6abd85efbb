"""Errors a user can cause. The CLI prints them as one clear message, never a traceback."""

from __future__ import annotations


class QgpuError(Exception):
    """A problem with the user's input: source, launch arguments, program size.

    Printed as ``file:line: message`` when a location is known. Exit status 2.
    """

    exit_code = 2

    def __init__(self, message: str, *, file: str | None = None, line: int | None = None,
                 detail: str = ""):
        super().__init__(message)
        self.message = message
        self.file = file
        self.line = line
        self.detail = detail
        self.ptx = ""
        """The PTX, when the error happened after CUDA compiled (``qgpu compile`` shows it)."""

    def location(self) -> str:
        if self.file and self.line:
            return f"{self.file}:{self.line}: "
        if self.file:
            return f"{self.file}: "
        return ""

    def __str__(self) -> str:
        text = f"{self.location()}{self.message}"
        return f"{text}\n{self.detail}" if self.detail else text


class CompileError(QgpuError):
    """CUDA that nvcc/clang rejects, PTX we cannot lower, or a program over the machine's limits."""


class LaunchError(QgpuError):
    """Bad launch configuration or kernel arguments."""


class RuntimeFault(QgpuError):
    """The kernel did something the machine defines as a fault (out-of-bounds access, runaway loop).

    Exit status 1, like a failing kernel, to tell it apart from bad input.
    """

    exit_code = 1
