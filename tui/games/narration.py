"""What a game says to the table narrator: the announce key, the turn prompt and the linear rendering.

A game's :class:`~tui.games.base.GameUI` holds one :class:`Narration`; the
generic screens ask through the UI's hooks and never name a game. Every
method works from one seat's view, so it can say only what that seat may
know. The defaults say nothing, and the screens fall back to the status line.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Generic, TypeVar

V = TypeVar("V")
"""The game's view type."""


class Narration(Generic[V]):
    """One game's sentences for the narrator, from a seat's view (the defaults say nothing)."""

    def announce(self, view: V, seat: int | None, detail: bool) -> str | None:
        """The situation for ``seat`` (None: a spectator) in one or two sentences; more with ``detail``."""
        return None

    def prompt(self, view: V, seat: int) -> str | None:
        """What ``seat``, asked to choose, may do now, as a short clause ("set the lineup for round 2")."""
        return None

    def asked(self, view: V, seat: int, names: Sequence[str]) -> str | None:
        """How to say that ``seat`` alone is asked to choose, in place of "It is Ana's turn" (None: that)."""
        return None

    def linear(self, view: V, seat: int | None) -> str | None:
        """The table's art as lines of words a screen reader reads in order, or None if it draws none."""
        return None
