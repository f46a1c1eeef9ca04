"""Typed input cut to a budget without ever cutting a bracketed paste's markers.

A terminal wraps a paste in ``ESC[200~`` ... ``ESC[201~``. An app that saw
the start marker but never the end one takes every later key as pasted text,
so the cap on input (:class:`~tui.server.limits.InputBudget`) may cut a
paste's content but must pass both markers, even when a marker arrives split
across two reads.

Outside a bracketed paste every character or escape sequence is a key (or a
mouse report) that Coven handles one by one, at some hundreds a second on a
busy machine: a raw paste of a megabyte would keep it busy for a minute. So
keys have their own, much smaller budget (:data:`KEY_BURST` at once,
:data:`KEY_RATE` a second after), counted in keys, never cutting one in half.
Input that overdraws it is a flood, not typing: everything outside a
bracketed paste is then dropped until the input pauses for
:data:`FLOOD_QUIET_SECONDS`, so one burst puts at most :data:`KEY_BURST` keys
into the player's Coven however long it lasts.
"""

from __future__ import annotations

import re
import time
from collections.abc import Callable

from tui.server.limits import InputBudget

PASTE_START = b"\x1b[200~"
PASTE_END = b"\x1b[201~"
MARKER_DEBT = 1024
"""How far start markers may overdraw the budget; a stream of nothing but markers stops there."""
KEY_BURST = 256
"""Most keys (characters, escape sequences, mouse reports) passed at once outside a bracketed paste."""
KEY_RATE = 128
"""Keys a second the key budget refills by: beyond any typist, and a mouse swipe across the screen fits."""
FLOOD_QUIET_SECONDS = 0.5
"""A pause in the input this long ends a flood; keys typed after it pass again."""
_MARKER = re.compile(rb"\x1b\[20[01]~")
_KEY = re.compile(rb"\x1b\[[0-?]{0,32}[ -/]{0,4}[@-~]|\x1bO[ -~]|\x1b[ -~]|[\xc0-\xf7][\x80-\xbf]{0,3}|.", re.DOTALL)
"""One key as a terminal sends it: a CSI or SS3 sequence, an Alt+key, a UTF-8 character, or one byte."""
_LONGEST_PARTIAL = len(PASTE_START) - 1
_CONTINUATION = bytes(range(0x80, 0xC0))
"""The bytes that continue a UTF-8 character: left out, the rest count characters."""


def _characters(data: bytes) -> int:
    """How many characters (or keys' bytes) ``data`` holds, counting a UTF-8 character once."""
    return len(data.translate(None, _CONTINUATION))  # in C: a megabyte costs next to nothing


def _is_partial_marker(data: bytes) -> bool:
    """Whether ``data`` is the beginning of a marker, but not a whole one."""
    return 0 < len(data) < len(PASTE_START) and (PASTE_START.startswith(data) or PASTE_END.startswith(data))


def _partial_tail(data: bytes) -> int:
    """Where a marker cut off by the end of ``data`` begins (``len(data)`` if none is)."""
    for size in range(min(_LONGEST_PARTIAL, len(data)), 0, -1):
        if _is_partial_marker(data[-size:]):
            return len(data) - size
    return len(data)


def _whole_keys(data: bytes, keys: int, room: int) -> tuple[int, int]:
    """Where to cut ``data`` to pass at most ``keys`` whole keys in ``room`` bytes, and how many keys that is."""
    end = count = 0
    if keys <= 0 or room <= 0:
        return 0, 0
    for match in _KEY.finditer(data):  # stops after ``keys`` matches, so a megabyte costs no more than a key burst
        if match.end() > room:
            break
        end, count = match.end(), count + 1
        if count >= keys:
            break
    return end, count


class InputGate:
    """Passes typed input within a budget; a paste loses content, never its markers.

    Attributes:
        dropped: bytes dropped since :meth:`take_dropped` was last called.
        dropped_text: characters of typed or pasted text among them (markers are not text), for the
            player's notice; counted until :meth:`take_dropped`.
        passed: bytes passed since the read that dropped the first of those.
    """

    def __init__(self, budget: InputBudget | None = None, keys: InputBudget | None = None, *,
                 clock: Callable[[], float] = time.monotonic) -> None:
        """A gate outside any paste, spending ``budget`` on bytes and ``keys`` on keys outside a paste.

        Fresh budgets are made when None (:data:`KEY_BURST` and :data:`KEY_RATE` for keys);
        ``clock`` is replaced by tests.
        """
        self.budget = budget if budget is not None else InputBudget()
        self.keys = keys if keys is not None else InputBudget(KEY_BURST, KEY_RATE, clock=clock)
        self._clock = clock
        self.flooding = False
        self._last_read = clock()
        self.in_paste = False
        self.dropped = 0
        self.dropped_text = 0
        self.passed = 0
        self._skipping = False  # a paste whose start marker was refused: dropped whole, end marker included
        self._partial = b""  # the beginning of a marker, passed at the end of the last read
        self._room = 0
        self._out = bytearray()

    def filter(self, data: bytes, room: int) -> bytes:
        """What of ``data`` to pass on; ``room`` bounds the content (markers may go beyond it)."""
        self._out = bytearray()
        self._room = max(0, room)
        now = self._clock()
        if self.flooding and now - self._last_read >= FLOOD_QUIET_SECONDS:
            self.flooding = False
        self._last_read = now
        if not self.dropped:
            self.passed = 0
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
        self.passed += len(self._out)
        return bytes(self._out)

    def take_dropped(self) -> int:
        """Bytes dropped since the last call, and start counting again (:attr:`dropped_text` too)."""
        dropped, self.dropped = self.dropped, 0
        self.dropped_text = 0
        return dropped

    def _drop(self, data: bytes) -> None:
        """Count ``data``, text a player typed or pasted, as dropped."""
        self.dropped += len(data)
        self.dropped_text += _characters(data)

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
                self._drop(data)
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
            self._drop(data)
            return
        if not self.in_paste:
            self._keys(data)
            return
        allowed = self.budget.take(min(len(data), self._room))
        self._room -= allowed
        self._drop(data[allowed:])
        self._out += data[:allowed]

    def _keys(self, data: bytes) -> None:
        """Pass the whole keys of ``data`` the key budget and the room allow; overdrawing starts a flood."""
        if self.flooding:
            self._drop(data)
            return
        end, count = _whole_keys(data, self.keys.available(), self._room)
        self.keys.take(count)
        self._room -= end
        self._out += data[:end]
        if end < len(data):
            self.flooding = True
            self._drop(data[end:])
