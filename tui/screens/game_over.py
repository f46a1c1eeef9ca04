"""What every game's final screen shares: its keys and the way back to the menu."""

from __future__ import annotations

from textual.binding import Binding
from textual.screen import Screen

from tui.navigation import leave_to_menu


class GameOverScreen(Screen[None]):
    """Base of the final screens: enter or escape returns to the main menu."""
    HELP_TITLE = "Game over"
    HELP = "How the game ended. Close it to look at the final table, or go back to the menu."

    BINDINGS = [
        Binding("enter", "close", "Back to menu"),
        Binding("escape", "close", "Back to menu", show=False),
    ]

    def action_close(self) -> None:
        """Back to the main menu when the app has one; otherwise just close."""
        leave_to_menu(self)
