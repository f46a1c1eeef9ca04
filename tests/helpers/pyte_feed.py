"""Feeding a program's output to pyte the way a terminal takes it: a sequence it cannot parse is skipped."""

from __future__ import annotations

import pyte


def feed(stream: pyte.ByteStream, data: bytes) -> None:
    """Feed ``data`` to ``stream``; a control sequence pyte cannot take is dropped, not fatal.

    pyte raises from its parser on some sequences a real terminal ignores (a
    CSI with more parameters than its handler takes). It resets itself, but
    the exception would end a reader thread and freeze the test's screen;
    the program's next paint puts the screen right, as it would in a terminal.
    """
    try:
        stream.feed(data)
    except (TypeError, ValueError, IndexError, KeyError):
        pass
