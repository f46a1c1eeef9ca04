"""Passing without being asked in Wizbits: auto-pass and yields, the player's conveniences, never rules.

**Auto-pass** (a setting kept per account, on unless switched off) passes a
seat's Priority when the rules offer it nothing but to pass. **A yield**
("until the end of this pillar", "until my turn", as Forge and XMage offer)
passes every Priority of the seat that asked for it, while passing is legal,
until its condition is met. Any other decision the seat must make ends the
yield, so the seat is asked. Yields belong to one seat at one screen and are
never saved: the passes they make are ordinary actions in the log.
The battlefield (:class:`~tui.games.wizbits.table.WizbitsTable`) keeps both
and answers the game screen's :meth:`~tui.games.base.GameTable.automatic_choice`.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from engine.wizbits import actions as act
from engine.wizbits.views import WizbitsView
from saves import SessionStore, StoreError
from saves.preferences import get_preference, set_preference

AUTO_PASS_KEY = "wizbits.auto_pass"
"""The preference that holds the auto-pass setting (a JSON boolean; anything else reads as the default)."""

AUTO_PASS_DEFAULT = True

AUTO_NOTE = "auto"
"""The log's note on a pass the setting made: "Ana passes (auto)."."""

YIELD_NOTE = "yielding"
"""The log's note on a pass a yield made: "Ana passes (yielding)."."""

KINDS = ("pillar", "turn")
"""The yields: until the end of this pillar, until the seat's next turn."""


def until_words(until: str, whose: str = "your") -> str:
    """How a yield of kind ``until`` reads after "yields": "until the end of this pillar", "until Ana's next turn"."""
    return "until the end of this pillar" if until == "pillar" else f"until {whose} next turn"


def pillar_key(view: WizbitsView) -> tuple[int, str, int, int]:
    """What tells one pillar from the next: the turn, phase, Play Phase and battle.

    Two pillars of one turn with the same key are always parted by another
    pillar in which both seats hold Priority, so a yield asks there first.
    """
    return view.turn, view.phase, view.play_round, view.battle


@dataclass(frozen=True)
class Yield:
    """A seat passes every Priority until ``until`` ("pillar" or "turn") is met.

    Attributes:
        until: "pillar": until this pillar ends; "turn": until the seat's next turn starts.
        turn: The turn the yield began in.
        pillar: The pillar it began in (see :func:`pillar_key`).
    """

    until: str
    turn: int
    pillar: tuple[int, str, int, int]

    @classmethod
    def start(cls, until: str, view: WizbitsView) -> Yield:
        """A yield of kind ``until`` beginning now."""
        if until not in KINDS:
            raise ValueError(f"no yield {until!r}")
        return cls(until, view.turn, pillar_key(view))

    def over(self, view: WizbitsView, seat: int) -> bool:
        """Whether the yield's condition is met in ``view`` (the game's end ends every yield)."""
        if view.over:
            return True
        if self.until == "pillar":
            return pillar_key(view) != self.pillar
        return view.turn != self.turn and view.active == seat


def auto_pass_setting(store: SessionStore | None, account: str | None) -> bool:
    """The account's auto-pass setting (the default when none is stored, or it is unusable)."""
    if store is None:
        return AUTO_PASS_DEFAULT
    value = get_preference(store, account, AUTO_PASS_KEY)
    return value if isinstance(value, bool) else AUTO_PASS_DEFAULT


def keep_auto_pass(store: SessionStore | None, account: str | None, on: bool) -> str | None:
    """Store the account's auto-pass setting; the reason in words when it could not be kept, else None."""
    if store is None:
        return "No session database is open, so the setting lasts until Coven closes"
    try:
        set_preference(store, account, AUTO_PASS_KEY, on)
    except (StoreError, ValueError) as error:
        return f"The setting could not be saved ({str(error).rstrip('.')}); it lasts until Coven closes"
    return None


def only_pass(legal: Sequence[Any]) -> bool:
    """Whether passing is the one legal action."""
    return list(legal) == [act.Pass()]
