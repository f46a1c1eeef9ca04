"""The game screen's undo key: who may take back a move here, and what the Footer says about it.

The rule itself is the engine's (:mod:`engine.core.undo`); this module only
asks it for the seat playing at this keyboard and shows the answer: the key
reads "Undo" when a move can be taken back, "Undo: <why not>" dimmed when the
rule keeps the seat's latest move, and is hidden when the latest move is not
theirs (another seat or the table has moved since: nothing to say).
"""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING, Protocol

from engine import ActionError
from saves import StoreError

if TYPE_CHECKING:
    from textual.binding import BindingsMap
    from textual.notifications import SeverityLevel

    from engine import Event
    from saves import LiveSession

UNDO_KEYS = ("u", "ctrl+z")
"""The keys that take back a move."""


class HeldSave(Protocol):
    """The part of the screen's save retry the undo key reads."""

    @property
    def failing(self) -> bool:
        """True while a move whose save failed is held."""


class UndoScreen(Protocol):
    """What the undo key reads of its game screen (:class:`~tui.screens.game.screen.GameScreen` and its kin).

    A protocol, so this module need not import the screen that imports it.
    """

    @property
    def live(self) -> LiveSession:
        """The session played."""

    @property
    def saving(self) -> HeldSave:
        """Holds a move whose save failed."""

    @property
    def revealed_seat(self) -> int | None:
        """The seat shown at this keyboard, if one is."""

    @property
    def viewer_seat(self) -> int | None:
        """Whose eyes are on the screen when nobody decides."""

    @property
    def _bindings(self) -> BindingsMap:
        """The screen's own key bindings (Textual's), whose undo descriptions this module writes."""

    def plays_here(self, seat: int) -> bool:
        """True when a person at this terminal plays ``seat``."""

    def notify(self, message: str, *, title: str = ..., severity: SeverityLevel = ...,
               timeout: float | None = ..., markup: bool = ...) -> None:
        """Show a toast."""

    def show_new_events(self, events: list[Event]) -> object:
        """Show what a move set off."""

def undo_seat(screen: UndoScreen) -> int | None:
    """The seat whose moves the undo key takes back: the one revealed at this keyboard, else its only player."""
    seat = screen.revealed_seat if screen.revealed_seat is not None else screen.viewer_seat
    return seat if seat is not None and screen.plays_here(seat) else None


def undo_refusal(screen: UndoScreen) -> str | None:
    """Why the undo key does nothing now, in a few words, or None when it takes back a move."""
    seat = undo_seat(screen)
    if seat is None:
        return "nothing of yours to take back"
    if screen.saving.failing:
        return "a move is waiting to be saved"
    return screen.live.undo_refusal(seat)


def undo_state(screen: UndoScreen) -> bool | None:
    """The undo key for ``check_action``: True when it works, None (dimmed) when the rule keeps the seat's
    latest move, False (hidden) when the latest move is not the seat's (the usual case: nothing to say)."""
    if undo_refusal(screen) is None:
        return True
    seat = undo_seat(screen)
    return None if seat is not None and screen.live.last_mover == seat and screen.live.result is None else False


def describe_undo_key(screen: UndoScreen) -> None:
    """Write the reason into the undo key's Footer description ("Undo: the turn has moved on")."""
    reason = undo_refusal(screen)
    description = "Undo" if reason is None else f"Undo: {reason}"
    bindings = screen._bindings.key_to_bindings  # the screen's own copy: changing it touches no other screen
    for key in UNDO_KEYS:
        bindings[key] = [replace(binding, description=description) if binding.action == "undo" else binding
                         for binding in bindings.get(key, [])]


def take_back(screen: UndoScreen) -> None:
    """Take back the seat's most recent move, or say why not."""
    seat = undo_seat(screen)
    reason = undo_refusal(screen)
    if seat is None or reason is not None:
        screen.notify(f"Nothing was taken back: {reason}.", title="Undo", timeout=4)
        return
    take_back_move(screen, seat)


def take_back_move(screen: UndoScreen, seat: int) -> bool:
    """Take back ``seat``'s most recent move (the rule was asked already) and show it; say why not if it fails."""
    try:
        events = screen.live.undo(seat)
    except ActionError as error:  # another terminal moved meanwhile
        screen.notify(f"Nothing was taken back: {error.reason}.", title="Undo", severity="warning")
        return False
    except StoreError as error:
        screen.notify(f"Nothing was taken back: {error}", title="Undo", severity="error")
        return False
    screen.show_new_events(events)
    return True
