"""Passing without being asked in Wizbits: auto-pass and yields, the player's conveniences, never rules.

**Auto-pass** (a setting kept per account, on unless switched off) passes a
seat's Priority when the rules offer it nothing but to pass. **A yield**
("until the end of this pillar", "until my turn", as Forge and XMage offer)
passes every Priority of the seat that asked for it, while passing is legal,
until its condition is met. Any other decision the seat must make ends the
yield, so the seat is asked. Yields belong to one seat at one screen and are
never saved: the passes they make are ordinary actions in the log.
:class:`YieldingTable`, the battlefield's base, keeps both and answers the
game screen's :meth:`~tui.games.base.GameTable.automatic_choice`.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from engine import Event
from engine.wizbits import actions as act
from engine.wizbits.views import WizbitsView
from saves import SessionStore, StoreError
from saves.preferences import get_preference, set_preference
from tui.context import coven_or_none
from tui.games.base import AutomaticChoice, GameTable

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


class YieldingTable(GameTable[WizbitsView, act.Action]):
    """The battlefield's passes without asking: each seat's yield and the account's auto-pass setting.

    The base of :class:`~tui.games.wizbits.choosing.ChoosingTable`, which starts
    yields from its keys; the prompt (drawn there) shows :meth:`priority_note`.
    """

    view: WizbitsView | None

    def __init__(self, *, id: str | None = None, classes: str | None = None) -> None:
        super().__init__(id=id, classes=classes)
        self.yields: dict[int, Yield] = {}
        """Each seat's yield at this screen (never shared between seats, never saved)."""
        self._auto_pass: bool | None = None

    def _update_prompt(self, stage: str | None = None) -> None:
        """Redraw the prompt (drawn by the table)."""
        raise NotImplementedError

    @property
    def auto_pass(self) -> bool:
        """Whether a Priority with nothing to do but pass passes by itself (the account's setting)."""
        if self._auto_pass is None:
            context = coven_or_none(self)
            self._auto_pass = auto_pass_setting(context.store, context.account) if context else True
        return self._auto_pass

    def present(self, eyes: int | None, view: WizbitsView, deciding_seat: int | None, legal: Sequence[Any]) -> None:
        """Draw ``view`` for ``eyes``; the game's end ends every yield."""
        if view.over:
            self.yields.clear()
        super().present(eyes, view, deciding_seat, legal)

    def automatic_choice(self, seat: int, view: WizbitsView, legal: Sequence[Any]) -> AutomaticChoice | None:
        """Pass for ``seat`` while it yields and may pass, or when passing is all it may do and auto-pass is on."""
        held = self.yields.get(seat)
        if held is not None and (held.over(view, seat) or act.Pass() not in legal):
            del self.yields[seat]  # met, or another decision: the seat is asked
            held = None
        if held is not None:
            return AutomaticChoice(act.Pass(), YIELD_NOTE, asked_for=True)
        if only_pass(legal) and self.auto_pass:
            return AutomaticChoice(act.Pass(), AUTO_NOTE)
        return None

    def show_events(self, events: Sequence[Event]) -> None:
        """A seat that takes back a move wants to choose again: its yield ends, or it would pass at once."""
        for event in events:
            if event.kind == "undo" and event.data.get("seat") in self.yields:  # engine.core.undo's event
                del self.yields[event.data["seat"]]

    def priority_note(self) -> str:
        """The seat looking's yield, or the auto-pass setting, as the prompt shows it while watching."""
        view = self.view
        if view is None or self.keys_hint is not None:
            return ""
        held = self.yields.get(view.seat) if view.seat is not None else None
        if held is not None:
            return f"Yielding {until_words(held.until)} (y stops)."
        return f"Auto-pass {'on' if self.auto_pass else 'off'} (P)."

    def action_switch_auto_pass(self, _shown: int = 1) -> None:
        """Switch auto-pass on or off for this account, kept for its next games."""
        self._auto_pass = not self.auto_pass
        words = "on: Priority with nothing to do but pass passes by itself" if self._auto_pass else \
            "off: every Priority asks"
        context = coven_or_none(self)
        problem = keep_auto_pass(context.store, context.account, self._auto_pass) if context else None
        self.notify(f"Auto-pass {words}" + (f". {problem}" if problem else ""), timeout=4, markup=False,
                    severity="warning" if problem else "information")
        self._update_prompt()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """Offer the auto-pass switch that says the setting as it stands ("Auto-pass: on"), outside replays."""
        if action == "switch_auto_pass":
            return self.keys_hint is None and bool(parameters and parameters[0]) == self.auto_pass
        return True
