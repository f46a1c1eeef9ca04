"""What every game's final screen shares: its keys and the way back to the menu."""

from __future__ import annotations

from textual.binding import Binding
from textual.screen import Screen


class GameOverScreen(Screen[None]):
    """Base of the final screens: enter or escape returns to the main menu."""

    BINDINGS = [
        Binding("enter", "close", "Back to menu"),
        Binding("escape", "close", "Back to menu", show=False),
    ]

    def action_close(self) -> None:
        """Back to the main menu when the app has one; otherwise just close."""
        go_to_menu = getattr(self.app, "go_to_menu", None)
        if callable(go_to_menu):
            go_to_menu()
        else:
            self.dismiss(None)
