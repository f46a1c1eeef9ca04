"""The game screen as its helpers see it: a protocol, so the undo key and the narrator need not import it.

:class:`~tui.screens.game.screen.GameScreen` composes these helpers, so they
cannot import the screen back without a cycle; they name what they ask of it
here instead.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Protocol

from engine import Event
from saves import LiveSession
from tui.games.base import GameUI
from tui.screens.game.save_retry import SaveRetry

if TYPE_CHECKING:
    from textual.binding import BindingsMap
    from textual.notifications import SeverityLevel


class ScreenHost(Protocol):
    """What the undo key and the narrator ask of the game screen."""

    live: LiveSession
    ui: GameUI[Any]
    revealed_seat: int | None
    status_text: str
    saving: SaveRetry
    _bindings: BindingsMap

    @property
    def human_seats(self) -> list[int]:
        """Seats played by people at this terminal."""

    @property
    def drives_table(self) -> bool:
        """True when this screen plays the bots and the table's automatic steps."""

    @property
    def viewer_seat(self) -> int | None:
        """Whose eyes are on the screen when nobody decides."""

    def plays_here(self, seat: int) -> bool:
        """True when a person at this terminal plays ``seat``."""

    def notify(self, message: str, *, title: str = "", severity: SeverityLevel = "information",
               timeout: float | None = None) -> None:
        """Tell the player ``message``."""

    def show_new_events(self, events: list[Event], *, then_advance: bool = True, note: str | None = None) -> bool:
        """Log and show the events of one saved action, then decide what happens next."""
