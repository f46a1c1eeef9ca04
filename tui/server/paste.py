"""Typed input cut to a budget without ever cutting a bracketed paste's markers.

A terminal wraps a paste in ``ESC[200~`` ... ``ESC[201~``. An app that saw
the start marker but never the end one takes every later key as pasted text,
so the cap on input (:class:`~tui.server.limits.InputBudget`) may cut a
paste's content but must pass both markers, even when a marker arrives split
across two reads.
"""

from __future__ import annotations

import re

from tui.server.limits import InputBudget

PASTE_START = b"\x1b[200~"
PASTE_END = b"\x1b[201~"
MARKER_DEBT = 1024
"""How far start markers may overdraw the budget; a stream of nothing but markers stops there."""
_MARKER = re.compile(rb"\x1b\[20[01]~")
_LONGEST_PARTIAL = len(PASTE_START) - 1


def _is_partial_marker(data: bytes) -> bool:
    """Whether ``data`` is the beginning of a marker, but not a whole one."""
    return 0 < len(data) < len(PASTE_START) and (PASTE_START.startswith(data) or PASTE_END.startswith(data))


def _partial_tail(data: bytes) -> int:
    """Where a marker cut off by the end of ``data`` begins (``len(data)`` if none is)."""
    for size in range(min(_LONGEST_PARTIAL, len(data)), 0, -1):
        if _is_partial_marker(data[-size:]):
            return len(data) - size
    return len(data)


class InputGate:
    """Passes typed input within a budget; a paste loses content, never its markers.

    Attributes:
        dropped: bytes dropped since :meth:`take_dropped` was last called.
    """

    def __init__(self, budget: InputBudget | None = None) -> None:
        """A gate outside any paste, spending ``budget`` (a fresh :class:`InputBudget` when None)."""
        self.budget = budget if budget is not None else InputBudget()
        self.in_paste = False
        self.dropped = 0
        self._skipping = False  # a paste whose start marker was refused: dropped whole, end marker included
        self._partial = b""  # the beginning of a marker, passed at the end of the last read
        self._room = 0
        self._out = bytearray()

    def filter(self, data: bytes, room: int) -> bytes:
        """What of ``data`` to pass on; ``room`` bounds the content (markers may go beyond it)."""
        self._out = bytearray()
        self._room = max(0, room)
        data = self._resume(data)
        tail = _partial_tail(data)
        body = data[:tail]
        position = 0
        for match in _MARKER.finditer(body):
            self._content(body[position:match.start()])
            self._marker(match.group())
            position = match.end()
        self._content(body[position:])
        if tail < len(data):
            # Maybe a marker split across reads: pass its first bytes now, since a lone
            # Escape key looks the same and must not wait for the next read.
            self._partial = data[tail:]
            if self._skipping:
                self.dropped += len(self._partial)
            else:
                self.budget.charge(len(self._partial), MARKER_DEBT)
                self._out += self._partial
        return bytes(self._out)

    def take_dropped(self) -> int:
        """Bytes dropped since the last call, and start counting again."""
        dropped, self.dropped = self.dropped, 0
        return dropped

    def _resume(self, data: bytes) -> bytes:
        """Finish a marker begun at the end of the last read; returns the rest of ``data``."""
        partial, self._partial = self._partial, b""
        if not partial:
            return data
        need = len(PASTE_START) - len(partial)
        whole = partial + data[:need]
        if whole in (PASTE_START, PASTE_END):
            self._marker(whole, already=len(partial))
            return data[need:]
        if _is_partial_marker(whole):  # still not whole: the read was tiny
            self._partial = whole
            if self._skipping:
                self.dropped += len(data)
            else:
                self._out += data
            return b""
        return data  # it was no marker after all; those bytes went on as typed

    def _marker(self, marker: bytes, already: int = 0) -> None:
        """Pass or drop a paste marker whose first ``already`` bytes went out with the last read."""
        rest = marker[already:]
        if self._skipping:
            if marker == PASTE_END:
                self._skipping = False
            self.dropped += len(rest)
        elif marker == PASTE_START and not self.in_paste:
            if already or self.budget.charge(len(marker), MARKER_DEBT):
                self.in_paste = True
                self._out += rest
            else:
                self._skipping = True
                self.dropped += len(rest)
        elif marker == PASTE_END and self.in_paste:
            self.in_paste = False
            self._out += rest  # free: it can only follow a start marker that was charged
        elif already:
            self._out += rest  # begun as a marker, so it goes on whole
        else:
            self._content(marker)  # a stray marker is just text

    def _content(self, data: bytes) -> None:
        """Pass what of ``data`` the budget and the room allow, and count the rest as dropped."""
        if not data:
            return
        if self._skipping:
            self.dropped += len(data)
            return
        allowed = self.budget.take(min(len(data), self._room))
        self._room -= allowed
        self.dropped += len(data) - allowed
        self._out += data[:allowed]
