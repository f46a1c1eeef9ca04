"""WitchDraft side panel: your hand, the highlighted card and the running score.

:class:`DraftHand` only draws a :class:`WitchDraftView` and posts messages:
:class:`DraftHand.CardChosen` when the player chooses a card from the hand and
:class:`DraftHand.WatchSeat` when they want to look at another play area.
Where the card goes and whether that is legal is for the owner and the engine.
The cards read as :mod:`tui.games.witchdraft.draft_text` writes them; the running score
and the table of seats are :mod:`tui.games.witchdraft.draft_score`'s.
"""

from __future__ import annotations

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.message import Message
from textual.widget import Widget
from textual.widgets import OptionList, Static
from textual.widgets.option_list import Option

from engine.witchdraft.cards import CARDS
from engine.witchdraft.state import ApprenticeView, WitchDraftView
from tui.games.witchdraft.draft_score import score_card
from tui.games.witchdraft.draft_text import (
    HAND_LEGEND,
    animal_text,
    card_picture,
    card_row,
    colour_text,
    half_symbols_text,
    ingredients_text,
    recipe_text,
    secret_line,
)
from tui.games.witchdraft.look import ANIMAL_GLYPHS, COLOUR_STYLES, legend_text
from tui.widgets.seat_private import scroll_home
from tui.widgets.styles import load_css


class DraftHand(Widget, can_focus=False):
    """The viewing seat's hand, the highlighted card and the running score, beside the potion grid.

    While the hand is on show its title is the list's border title, so at
    80x24 the running score (with the ingredient card's points) still fits
    under a hand of six cards.
    """

    DEFAULT_CSS = load_css(__file__)

    BINDINGS = [
        Binding("space", "choose", "Pick card"),
        Binding("left_square_bracket", "watch(-1)", "Prev area", show=False),
        Binding("right_square_bracket", "watch(1)", "Areas", key_display="[ ]",
                tooltip="Areas: look at another seat's play area, the potion it brews ([ the one before, ] the next)"),
    ]

    class Signal(Message):
        """Base of the panel's messages."""

        def __init__(self, hand: DraftHand) -> None:
            super().__init__()
            self.hand = hand

        @property
        def control(self) -> DraftHand:
            """The panel that sent this."""
            return self.hand

    class CardChosen(Signal):
        """The player chose ``card_id`` from the hand."""

        def __init__(self, hand: DraftHand, card_id: str) -> None:
            super().__init__(hand)
            self.card_id = card_id

    class CardHighlighted(Signal):
        """The cursor moved onto ``card_id`` (e.g. to preview it on the grid)."""

        def __init__(self, hand: DraftHand, card_id: str) -> None:
            super().__init__(hand)
            self.card_id = card_id

    class WatchSeat(Signal):
        """The player wants to look at ``seat``'s play area."""

        def __init__(self, hand: DraftHand, seat: int) -> None:
            super().__init__(hand)
            self.seat = seat

    def __init__(self, *, id: str | None = None, classes: str | None = None) -> None:
        super().__init__(id=id, classes=classes)
        self.view: WitchDraftView | None = None
        self.cards: tuple[str, ...] = ()
        """The hand on show, in list order."""
        self.watching: int = 0
        """The seat whose play area the player is looking at."""
        self.placing_card: str | None = None
        """Your revealed pick while it waits to be placed (shown instead of the hand)."""
        self._wish: str | None = None  # the card to put the cursor on at the next redraw (a seat's own place)

    def compose(self) -> ComposeResult:
        yield Static(id="dh-title")
        yield OptionList(id="dh-hand")
        yield Static(id="dh-card")
        with VerticalScroll(id="dh-info"):
            yield Static(id="dh-score")
            yield Static(legend_text(), id="dh-legend")

    # --- drawing ---------------------------------------------------------------------------

    def show(self, view: WitchDraftView, watching: int | None = None) -> None:
        """Redraw from ``view``; ``watching`` overrides the seat being looked at."""
        first = self.view is None
        self.view = view
        if watching is not None:
            self.watching = watching
        elif first or not 0 <= self.watching < len(view.players):
            self.watching = view.seat if view.seat is not None else 0
        self._show_hand(view, view.me)
        self._show_score()

    def _show_hand(self, view: WitchDraftView, me: ApprenticeView | None) -> None:
        title = Text()
        # The rest of the hand stays off screen while placing: pass-and-play may skip the curtain then.
        hand = tuple(me.hand or ()) if me is not None and view.stage == "pick" else ()
        chosen = me.pending if me is not None else None
        self.placing_card = me.picked if me is not None and view.stage == "place" else None
        if me is None:
            title.append("Watching the table", style="bold")
        elif view.over:
            title.append("The potions are brewed", style="bold")
        elif chosen is not None:
            title.append("Your pick is in", style="bold green")
            title.append(" · waiting for the others", style="dim")
        elif view.stage == "place" and self.placing_card is not None:
            title.append("Picks revealed", style="bold green")
            title.append(" · place yours", style="dim")
        elif view.stage == "place":
            title.append("Placed", style="bold green")
            title.append(" · waiting for the others", style="dim")
        else:
            title.append("Your hand", style="bold")
            title.append(f" · phase {view.phase}, pick {view.pick}", style="dim")
        option_list = self.query_one("#dh-hand", OptionList)
        option_list.display = bool(hand)
        self.query_one("#dh-title", Static).update(title)
        self.query_one("#dh-title", Static).display = not hand
        option_list.border_title = title if hand else None
        # The rows' notation ([◆|F] DDRRR) read at a glance; the Key below the score names each glyph.
        option_list.border_subtitle = Text(HAND_LEGEND, style="dim") if hand else None
        keep = option_list.highlighted if hand == self.cards else None
        self.cards = hand
        options = []
        for card_id in hand:
            row = card_row(card_id)
            if card_id == chosen:
                row.append(" ✓", style="bold green")
            options.append(Option(row))
        option_list.set_options(options)
        wish, self._wish = self._wish, None
        if hand:
            start = hand.index(chosen) if chosen in hand else hand.index(wish) if wish in hand else 0
            option_list.highlighted = keep if keep is not None and keep < len(hand) else start
        self._show_card()

    def _show_card(self) -> None:
        card_id = self.highlighted_card or self.placing_card
        detail = self.query_one("#dh-card", Static)
        detail.display = card_id is not None
        if card_id is None:
            return
        card = CARDS[card_id]
        picture = card_picture(card_id)
        side = [Text(card.name, style="bold"),
                Text.assemble(animal_text(card.animal), " ", colour_text(card.colour)),
                half_symbols_text(card)]
        detail.update(Text("\n").join(Text.assemble(art, "  ", words) for art, words in zip(picture, side, strict=False)))

    def _show_score(self) -> None:
        """The running score by category: the watched seat's when its cards are public, else yours."""
        assert self.view is not None
        self.query_one("#dh-score", Static).update(score_card(self.view, self.watching))

    # --- choosing --------------------------------------------------------------------------

    @property
    def highlighted_card(self) -> str | None:
        """The card under the cursor, if the hand is on show."""
        if not self.cards or not self.is_mounted:
            return None
        index = self.query_one("#dh-hand", OptionList).highlighted
        return self.cards[index] if index is not None and index < len(self.cards) else None

    @on(OptionList.OptionHighlighted)
    def _highlighted(self, event: OptionList.OptionHighlighted) -> None:
        """Show the card under the cursor and tell the table about it."""
        event.stop()
        self._show_card()
        card_id = self.highlighted_card
        if card_id is not None:
            self.post_message(self.CardHighlighted(self, card_id))

    @on(OptionList.OptionSelected)
    def _chosen(self, event: OptionList.OptionSelected) -> None:
        """Enter (or a click) on a card chooses it."""
        event.stop()
        self.action_choose()

    def action_choose(self) -> None:
        """Post :class:`CardChosen` for the highlighted card, unless your pick is already in."""
        me = self.view.me if self.view is not None else None
        card_id = self.highlighted_card
        view = self.view
        if me is None or card_id is None or view is None or view.over or view.stage != "pick" or me.ready:
            return
        self.post_message(self.CardChosen(self, card_id))

    def action_watch(self, step: int) -> None:
        """Look at the next (``1``) or previous (``-1``) seat's play area."""
        if self.view is None:
            return
        self.watching = (self.watching + step) % len(self.view.players)
        self._show_score()
        self.post_message(self.WatchSeat(self, self.watching))

    def remember(self) -> str | None:
        """The card under the cursor: where this seat left its hand (kept per seat by the table)."""
        return self.highlighted_card

    def restore(self, card_id: str | None) -> None:
        """Before the next seat's view is drawn: its cursor goes on ``card_id`` if it is in that hand, else the top.

        Nothing of the last seat's cursor is kept, and the notes scroll back to their start.
        """
        self._wish = card_id
        self.cards = ()
        scroll_home(self.query_one("#dh-hand"), self.query_one("#dh-info"))

    def focus_hand(self) -> None:
        """Put the keyboard on the hand list."""
        self.query_one("#dh-hand", OptionList).focus()


__all__ = [
    "ANIMAL_GLYPHS", "COLOUR_STYLES", "DraftHand", "card_picture", "card_row", "colour_text",
    "ingredients_text", "recipe_text", "secret_line",
]
