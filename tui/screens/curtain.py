"""The pass-and-play curtain: hides the table while the terminal changes hands."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Center, Middle, Vertical
from textual.screen import Screen
from textual.widgets import Static

from tui.context import leave_to_menu
from tui.safe_text import plain
from tui.widgets.fitting_footer import FittingFooter
from tui.widgets.styles import css_beside


def curtain_text(name: str, context: str = "") -> str:
    """The curtain's message for the player ``name``, under ``context`` (game and progress) if given."""
    message = f"Pass to {name}.\n\nPress Enter when only {name} is looking."
    return f"{context}\n\n{message}" if context else message


class CurtainScreen(Screen[None]):
    """A full-screen curtain; Enter dismisses it to reveal the seat's view.

    The game screen sets its table to the spectator view before pushing this,
    so nothing secret is rendered underneath.
    """
    HELP_TITLE = "Pass the keyboard"
    HELP = ("Another player at this keyboard is next. The curtain hides the table so no one sees their "
            "cards; hand over, then let them lift it.")

    CSS_PATH = css_beside(__file__, "curtain.tcss")
    BINDINGS = [
        Binding("enter", "reveal", "Reveal"),
        Binding("escape", "menu", "Menu"),
    ]

    def __init__(self, name: str, context: str = "") -> None:
        """Remember whose turn it is; ``context`` says where the game stands (no secrets)."""
        super().__init__()
        self.player_name = name
        self.context = context

    def compose(self) -> ComposeResult:
        """The message in the middle of an otherwise empty screen."""
        with Middle():
            with Center():
                with Vertical(id="curtain-box"):
                    yield Static(plain(curtain_text(self.player_name, self.context)), id="curtain-text")
        yield FittingFooter()

    def action_reveal(self) -> None:
        """Lift the curtain."""
        self.dismiss(None)

    def action_menu(self) -> None:
        """Leave the game (it is saved) and go back to the main menu."""
        leave_to_menu(self)
