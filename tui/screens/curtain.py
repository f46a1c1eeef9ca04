"""The pass-and-play curtain: hides the table while the terminal changes hands.

The player who just moved still has the keyboard when the curtain rises, so
the curtain offers them ``u``: take that move back (when the undo rule allows
it), or, dimmed, why not ("Undo: all secret choices are shown"). Taking back
closes the curtain with :data:`TAKE_BACK` and the game screen raises a new one
for whoever must choose again: nothing of anyone's is shown on the way.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Center, Middle, Vertical
from textual.screen import Screen
from textual.widgets import Static

from tui.context import leave_to_menu
from tui.safe_text import plain
from tui.widgets.fitting_footer import FittingFooter
from tui.widgets.styles import css_beside

TAKE_BACK = "take back"
"""What the curtain is dismissed with when the player who just moved takes their move back."""


@dataclass(frozen=True)
class TakeBackOffer:
    """The move the curtain offers to take back: whose it is, and why the rule keeps it (None: it may go).

    Attributes:
        name: The name of the player who made the move (they are still at the keyboard).
        refusal: Why the move may not be taken back, in a few words, or None when it may.
    """

    name: str
    refusal: str | None = None


def curtain_text(name: str, context: str = "", offer: TakeBackOffer | None = None) -> str:
    """The curtain's message for the player ``name``, under ``context`` (game and progress) if given.

    With ``offer``, a last line tells the player who just moved whether ``u`` takes their move back.
    """
    message = f"Pass to {name}.\n\nPress Enter when only {name} is looking."
    if offer is not None:
        message += (f"\n\n{offer.name}: u takes your move back." if offer.refusal is None
                    else f"\n\n{offer.name}'s move stays: {offer.refusal}.")
    return f"{context}\n\n{message}" if context else message


class CurtainScreen(Screen[str | None]):
    """A full-screen curtain; Enter dismisses it to reveal the seat's view, ``u`` takes back the last move.

    The game screen sets its table to the spectator view before pushing this,
    so nothing secret is rendered underneath.
    """
    HELP_TITLE = "Pass the keyboard"
    HELP = ("Another player at this keyboard is next. The curtain hides the table so no one sees their "
            "cards; hand over, then let them lift it. The player who just moved may press u first to take "
            "their move back, when the rule allows it (the key says why not when it does not).")

    CSS_PATH = css_beside(__file__, "curtain.tcss")
    BINDINGS = [
        Binding("enter", "reveal", "Reveal"),
        Binding("u,ctrl+z", "undo", "Undo", key_display="u"),
        Binding("escape", "menu", "Menu"),
    ]

    def __init__(self, name: str, context: str = "", offer: TakeBackOffer | None = None) -> None:
        """Remember whose turn it is; ``context`` says where the game stands (no secrets); ``offer`` is the
        move the player who just moved may take back (None: the last move was not a person's here)."""
        super().__init__()
        self.player_name = name
        self.context = context
        self.offer = offer
        if offer is not None:  # the key says whose move it takes back, or why it cannot
            description = f"Undo {offer.name}'s move" if offer.refusal is None else f"Undo: {offer.refusal}"
            keys = self._bindings.key_to_bindings  # the screen's own copy: changing it touches no other screen
            for key, bindings in keys.items():
                keys[key] = [replace(binding, description=description) if binding.action == "undo" else binding
                             for binding in bindings]

    def compose(self) -> ComposeResult:
        """The message in the middle of an otherwise empty screen."""
        with Middle():
            with Center():
                with Vertical(id="curtain-box"):
                    yield Static(plain(curtain_text(self.player_name, self.context, self.offer)), id="curtain-text")
        yield FittingFooter()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """The undo key: shown when the move may go, dimmed when the rule keeps it, hidden with no offer."""
        if action == "undo":
            if self.offer is None:
                return False
            return True if self.offer.refusal is None else None
        return True

    def action_reveal(self) -> None:
        """Lift the curtain."""
        self.dismiss(None)

    def action_undo(self) -> None:
        """Take back the last move: the game screen does it, then raises a curtain for whoever chooses again."""
        if self.offer is not None and self.offer.refusal is None:
            self.dismiss(TAKE_BACK)

    def action_menu(self) -> None:
        """Leave the game (it is saved) and go back to the main menu."""
        leave_to_menu(self)
