"""When to tell a player that input was dropped: once a flood is over, and never more often than a notice a while.

The input gate (:mod:`tui.server.paste`) drops a paste too long to pass; the
player should hear it, once per flood, not once per read. A player (or a
script) pasting over and over must not fill their screen with notices
either: notices come at least :data:`NOTICE_GAP_SECONDS` apart, and what is
dropped meanwhile is added to the next one.
"""

from __future__ import annotations

import time
from collections.abc import Callable

NOTICE_GAP_SECONDS = 10.0
"""The least time between two notices to one player."""


class DropNotices:
    """Characters dropped and not yet told, and when the next notice may go."""

    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        """Nothing to tell yet; ``clock`` is replaced by tests."""
        self._clock = clock
        self._told_at: float | None = None
        self.pending = 0
        """Characters dropped since the last notice."""

    def add(self, characters: int) -> None:
        """Count ``characters`` more, dropped in a flood that is over."""
        self.pending += max(0, characters)

    def wait(self) -> float:
        """Seconds until a notice may go (0: now)."""
        if self._told_at is None:
            return 0.0
        return max(0.0, self._told_at + NOTICE_GAP_SECONDS - self._clock())

    def take(self) -> int | None:
        """The characters to tell the player now, or None (nothing pending, or told too recently)."""
        if not self.pending or self.wait() > 0:
            return None
        characters, self.pending = self.pending, 0
        self._told_at = self._clock()
        return characters
