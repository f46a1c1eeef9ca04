"""The Wizbits piles: both seats' discard piles and seceded cards, public information only.

Opened from the battlefield with ``g``. It reads the view alone, so it shows
what the engine makes public (``PlayerView.discard`` and the seceded cards in
play) and nothing else: never a hand, never a deck's order. The highlighted
card is drawn in full beside the list; ``tab`` jumps to the next pile.
"""

from __future__ import annotations

from dataclasses import dataclass

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import OptionList, Static
from textual.widgets.option_list import Option

from engine.wizbits.cards.card_set import CARDS_BY_ID
from engine.wizbits.views import WizbitsView
from tui.games.wizbits.card import WizbitsCard, card_name
from tui.games.wizbits.inspection import ChoiceList
from tui.safe_text import plain
from tui.widgets.fitting_footer import FittingFooter
from tui.widgets.styles import load_css


@dataclass(frozen=True)
class PileLine:
    """One line of the list: a pile's header (no card) or a card in it."""

    text: Text
    card_id: str | None = None
    pile: int = 0
    """Which pile the line belongs to, in the order they are listed."""


def pile_lines(view: WizbitsView) -> list[PileLine]:
    """The piles in order: the opponent's discard and seceded cards, then the viewer's (seat 0's for a spectator).

    A discard pile lists its top (newest) card first; the card pane shows a seceded card's flip abilities.
    """
    me = view.seat if view.seat is not None else 0
    lines: list[PileLine] = []
    pile = 0
    for seat in (1 - me, me):
        player = view.players[seat]
        owner = "Your" if seat == view.seat else f"{player.name}'s"
        discard = [card_id for _, card_id in reversed(player.discard) if card_id in CARDS_BY_ID]
        seceded = [p.card_id for p in player.in_play if p.seceded and p.card_id in CARDS_BY_ID]
        for title, cards, flips in ((f"{owner} discard pile", discard, False), (f"{owner} seceded cards", seceded, True)):
            header = plain(f"{title} · {len(cards)}")
            header.append(" (top first)" if not flips and cards else "", style="dim")
            header.stylize("bold")
            lines.append(PileLine(header, None, pile))
            if not cards:
                lines.append(PileLine(Text("  none", style="dim italic"), None, pile))
            for card_id in cards:
                line = Text("  ")
                line.append_text(card_name(card_id))
                if flips:
                    line.append(" ⟲ flipped", style="italic")
                lines.append(PileLine(line, card_id, pile))
            pile += 1
    return lines


class PilesDialog(ModalScreen[None]):
    """Both seats' discard piles and seceded cards, with the highlighted card in full."""

    HELP_TITLE = "Discard piles and seceded cards"
    HELP = "Both seats' discard piles (top card first) and seceded cards: what everyone at the table may see."

    DEFAULT_CSS = load_css(__file__)

    BINDINGS = [
        Binding("tab", "next_pile(1)", "Next pile"),
        Binding("shift+tab", "next_pile(-1)", "Previous pile", show=False),
        Binding("escape,g,q", "close", "Close"),
    ]

    def __init__(self, view: WizbitsView) -> None:
        """Show the piles of ``view`` (a seat's or a spectator's)."""
        super().__init__()
        self.view = view
        self.lines = pile_lines(view)

    def compose(self) -> ComposeResult:
        with Vertical(id="piles-box"):
            yield Static(Text("Discard piles and seceded cards: public to everyone", style="bold"), id="piles-title")
            with Horizontal(id="piles-body"):
                listing = ChoiceList(lambda: False, id="piles-list")  # its border says how many lines wait below
                listing.add_options([Option(line.text, disabled=line.card_id is None) for line in self.lines])
                yield listing
                with VerticalScroll(id="piles-card-box"):
                    yield WizbitsCard(id="piles-card", empty_text="No card here.", reminders=False)
        yield FittingFooter()

    def on_mount(self) -> None:
        listing = self.query_one("#piles-list", OptionList)
        listing.focus()
        first = next((index for index, line in enumerate(self.lines) if line.card_id is not None), None)
        listing.highlighted = first
        self._show(first)

    @on(OptionList.OptionHighlighted)
    def _highlighted(self, event: OptionList.OptionHighlighted) -> None:
        """Show the highlighted card."""
        event.stop()
        self._show(event.option_index)

    def _show(self, index: int | None) -> None:
        card_id = self.lines[index].card_id if index is not None and index < len(self.lines) else None
        self.query_one("#piles-card", WizbitsCard).show(card_id)

    def action_next_pile(self, step: int) -> None:
        """Jump to the first card of the next (or previous) pile that has one."""
        listing = self.query_one("#piles-list", OptionList)
        here = self.lines[listing.highlighted].pile if listing.highlighted is not None else 0
        piles = sorted({line.pile for line in self.lines if line.card_id is not None})
        if not piles:
            return
        later = [pile for pile in piles if (pile - here) * step > 0]
        target = (later[0] if step > 0 else later[-1]) if later else (piles[0] if step > 0 else piles[-1])
        listing.highlighted = next(index for index, line in enumerate(self.lines)
                                   if line.pile == target and line.card_id is not None)

    def action_close(self) -> None:
        """Close the piles."""
        self.dismiss(None)
