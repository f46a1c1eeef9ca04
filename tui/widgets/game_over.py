"""What every game's final screen shares: its keys, the way back to the menu, play again and the series."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from rich.text import Text
from textual.binding import Binding
from textual.screen import Screen
from textual.widgets import Static

from tui.context import leave_to_menu
from tui.navigation import PlayAgain

if TYPE_CHECKING:
    from saves import LiveSession


class GameOverScreen(Screen[None]):
    """Base of the final screens: enter or escape returns to the main menu, p plays again.

    The game screen that puts it up sets :attr:`live` (which makes ``p`` work),
    :attr:`series` and, at a shared table, :attr:`ask_table` instead of a local rematch.
    """
    HELP_TITLE = "Game over"
    HELP = ("How the game ended. Close it to look at the final table, or go back to the menu. p plays again: "
            "the same game, options and seats with a new deal, the next seat starting; at a shared table every "
            "seated player is asked first.")

    DEFAULT_CSS = """
    GameOverScreen #game-over-series { dock: top; height: 1; width: 1fr; content-align: center middle; }
    """

    BINDINGS = [
        Binding("enter", "close", "Back to menu"),
        Binding("escape", "close", "Back to menu", show=False),
        Binding("p", "play_again", "Play again"),
    ]

    live: LiveSession | None = None
    """The finished game, when a game screen put this up: ``p`` starts its rematch."""
    series: str | None = None
    """The running series score ("Ana 2 – 1 Bo"), shown above everything when a rematch chain has one."""
    ask_table: Callable[[], None] | None = None
    """At a shared table, what ``p`` does instead: ask every seated player (see the table's game screen)."""
    on_leave: Callable[[], None] | None = None
    """At a shared table, what closing this screen also does: the player's seats leave the finished table."""

    def on_mount(self) -> None:
        """Put up the series line (every final screen shows it the same way)."""
        if self.series:
            line = Static(Text.assemble(("Series  ", "bold"), (self.series, "bold #ffd75e")), id="game-over-series")
            self.mount(line)

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """``p`` shows only when there is a game to play again."""
        if action == "play_again":
            return self.live is not None or self.ask_table is not None
        return True

    def action_close(self) -> None:
        """Back to the main menu when the app has one; otherwise just close."""
        if self.on_leave is not None:
            self.on_leave()
        leave_to_menu(self)

    def action_play_again(self) -> None:
        """Ask the table, or start the rematch here (the app replaces the finished game's screen)."""
        if self.ask_table is not None:
            self.ask_table()
        elif self.live is not None:
            self.app.post_message(PlayAgain(self.live))
