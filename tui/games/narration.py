"""What a game says to the table narrator: the announce key, the turn prompt and the linear rendering.

A game's :class:`~tui.games.base.GameUI` holds one :class:`Narration`; the
generic screens ask through the UI's hooks and never name a game. Every
method works from one seat's view, so it can say only what that seat may
know. The defaults say nothing, and the screens fall back to the status line.
"""

from __future__ import annotations

from collections.abc import Sequence
from enum import StrEnum
from typing import Generic, TypeVar

from tui.verbosity import DEFAULT, Verbosity

V = TypeVar("V")
"""The game's view type."""


class Question(StrEnum):
    """A question a player may ask the narrator (the ask key ``'`` then a letter)."""

    LAST = "last"
    """The last thing that happened."""
    TURN = "turn"
    """Whose move it is and what they are asked."""
    HAND = "hand"
    """The asking seat's hand."""
    OPPONENTS = "opponents"
    """The other seats' public cards."""
    SCORE = "score"
    """The score as the game keeps it (Cup Tokens, brew points, Main Points and SCNs)."""
    BOARD = "board"
    """The game's board: the duel zone and lineups, the asking seat's potion, the Pillar."""
    CLOCK = "clock"
    """The table's clock, where there is one."""


WATCHING_HAND = "You are watching: you hold no hand."
"""The answer to "my hand" for a spectator (or the seat-less view behind a curtain)."""


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

    def answer(self, view: V, seat: int | None, question: Question, names: Sequence[str],
               level: Verbosity = DEFAULT) -> str | None:
        """The answer to ``question`` for ``seat`` (None: a spectator), in one or two sentences, or None when this
        game leaves it to the narrator (the last move, whose turn, the clock); at full ``level``, with whatever
        else the view holds."""
        return None

    def linear(self, view: V, seat: int | None, level: Verbosity = DEFAULT) -> str | None:
        """The table's art as lines of words a screen reader reads in order, or None if it draws none; at terse
        ``level`` one line per side or unit with names only, at full with each card's current values too."""
        return None
