"""Telling a player at a table that it has become their turn: the terminal bell and a desktop notice.

Many terminals turn the OSC 9 escape (``ESC ] 9 ; text BEL``) into a system
notification; the others ignore it, and the bell rings anyway. The notice is
sent when a seat played at this terminal is asked to choose and was not asked
just before (never for a choice that follows the seat's own move), at most
once per :data:`MIN_GAP` seconds. The "Turn notifications" setting decides:
``auto`` sends it at SSH tables only, ``on`` at every table, ``off`` never.
"""

from __future__ import annotations

import time

NOTICE_TEXT = "Coven: it is your turn"
"""The desktop notice's text: fixed and plain, so nothing from outside reaches the terminal."""

MIN_GAP = 15.0
"""Seconds between two notices, however quickly turns come back."""


def notice_escape(text: str = NOTICE_TEXT) -> str:
    """The bell and the OSC 9 desktop-notification escape for ``text`` (printable ASCII only)."""
    safe = "".join(char for char in text if " " <= char <= "~")
    return f"\a\x1b]9;{safe}\x07"


def wanted(setting: object, served: bool) -> bool:
    """Whether the "Turn notifications" setting asks for notices here."""
    return setting == "on" or (setting == "auto" and served)


class TurnNotices:
    """Decides when a notice is due: a new turn for a seat here, not right after its own move, not too often."""

    def __init__(self) -> None:
        self._asked: set[int] = set()
        self._last = float("-inf")

    def due(self, asked: set[int], last_mover: int | None, now: float | None = None) -> bool:
        """``asked`` are the seats here asked to choose now; True when a notice should go out."""
        newly = asked - self._asked
        self._asked = set(asked)
        if not newly or last_mover in newly:
            return False
        now = time.monotonic() if now is None else now
        if now - self._last < MIN_GAP:
            return False
        self._last = now
        return True
