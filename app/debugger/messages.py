"""Engine events, posted from worker threads to the app (``post_message`` is thread-safe)."""

from __future__ import annotations

from dataclasses import dataclass

from textual.message import Message

from app.debugger.session import Frame, Kernel, Session


@dataclass
class SessionReady(Message):
    """The model is loaded and the launch started."""

    session: Session
    frame: Frame


@dataclass
class Stopped(Message):
    """A command finished: show this frame."""

    frame: Frame
    seconds: float


@dataclass
class Progress(Message):
    """A long command is running (what it is doing now)."""

    text: str


@dataclass
class Failed(Message):
    """A command or the start-up failed (the text says why; the session, if any, goes on)."""

    text: str


@dataclass
class KernelChanged(Message):
    """The kernel file was saved (the watcher debounced the events)."""


@dataclass
class ReloadFailed(Message):
    text: str


@dataclass
class ReloadReady(Message):
    kernel: Kernel
