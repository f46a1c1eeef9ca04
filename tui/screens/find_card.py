"""Find a card: look up any card of any game by name, from any screen (``ctrl+f``).

The dialog lists every game's cards (each game's
:meth:`~tui.games.base.GameUI.card_index`) filtered as the player types (see
:mod:`tui.card_search`); enter shows the highlighted card's whole text. Opened
from a game or a replay, the card's text adds where it stands now and its
current values, read by the screen below from the seat looking only
(:meth:`~tui.games.base.GameUI.card_now`), so a hidden card is never named. A
curtain in front shows nothing of any seat.

For a screen reader the results are a focused list, the shown card is plain
text, and ``;`` says the highlighted (or shown) card as a notification.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from rich.text import Text
from textual import events, on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical, VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Input, OptionList, Static
from textual.widgets.option_list import Option

from tui.card_search import QUERY_LIMIT, FoundCard, every_card, search
from tui.games import game_ui, playable_games
from tui.safe_text import plain

CardNow = Callable[[str, str], "str | None"]
"""What the screen below says of a card in play: ``(game id, card key)`` to its current values, or None."""

NOTHING_FOUND = "No card has that name. Try fewer letters."
"""The list's one line when nothing matches."""


def all_cards() -> list[FoundCard]:
    """Every card of every playable game, in menu order."""
    return every_card([(entry.game_id, entry.title, game_ui(entry.game_id).card_index())
                       for entry in playable_games()])


def card_words(card: FoundCard, now: str | None) -> str:
    """The whole card as the dialog shows and says it: name, game and kind, its text, then where it is now."""
    head = f"{card.entry.name}: {card.game_title} {card.entry.kind}."
    return "\n".join(part for part in (head, card.entry.text, now) if part)


class FindCardScreen(ModalScreen[None]):
    """Look up a card by name: type, pick from the list, read its whole text."""

    HELP_TITLE = "Find a card"
    HELP = ("Type part of a card's name (any case, accents or not; the start of each word is enough: \"lan owl\"). "
            "The list shows each card found and its game; down moves into it, enter shows the card's whole text, "
            "and in a game or replay where the card is in play and you may see it, where it stands and its current "
            "values. ; says the highlighted card. Escape goes back to the list, then closes.")

    DEFAULT_CSS = """
    FindCardScreen { align: center middle; background: $background 60%; }
    #find-box { width: 76; max-width: 100%; height: auto; max-height: 100%; border: thick $accent;
                background: $surface; padding: 0 1; }
    #find-title { text-style: bold; width: 100%; height: 1; }
    #find-query { width: 100%; }
    #find-results { height: auto; max-height: 12; border: round $primary 50%; }
    #find-card { height: auto; max-height: 16; border: round $primary 50%; }
    #find-card-text { height: auto; }
    """

    BINDINGS = [
        # Before the name field's and the list's own enter (hidden in the Footer), so the Footer shows it.
        Binding("enter", "show", "Show card", priority=True),
        Binding("escape", "back", "Back"),
        Binding("semicolon", "say", "Say", key_display=";"),
    ]

    def __init__(self, now: CardNow | None = None, cards: Sequence[FoundCard] | None = None) -> None:
        """``now`` asks the screen below where a card stands in play (None: nowhere to ask); ``cards`` the list."""
        super().__init__()
        self.now = now
        self.cards = list(all_cards() if cards is None else cards)
        self.found: list[FoundCard] = list(self.cards)
        self.shown: FoundCard | None = None
        """The card whose whole text is shown, or None while the list is."""

    def compose(self) -> ComposeResult:
        """A title, the name field, the results list and (hidden until enter) the card's text."""
        from tui.widgets.fitting_footer import FittingFooter

        with Vertical(id="find-box"):
            yield Static("Find a card: type part of its name", id="find-title")
            yield Input(placeholder="card name", max_length=QUERY_LIMIT, id="find-query")
            yield OptionList(id="find-results")
            with VerticalScroll(id="find-card"):
                yield Static(id="find-card-text", markup=False)
        yield FittingFooter()

    def on_mount(self) -> None:
        """Fill the list and put the cursor in the name field."""
        self.query_one("#find-card").display = False
        self._fill()
        self.query_one(Input).focus()

    @on(Input.Changed, "#find-query")
    def _typed(self, event: Input.Changed) -> None:
        """Filter the list as the player types."""
        event.stop()
        self.found = search(self.cards, event.value)
        self._fill()
        if self.shown is not None:
            self._to_list()

    def _fill(self) -> None:
        """Show :attr:`found` in the list, or one line saying nothing matched."""
        results = self.query_one("#find-results", OptionList)
        results.clear_options()
        if not self.found:
            results.add_option(Option(Text(NOTHING_FOUND, style="italic"), id="none", disabled=True))
            return
        results.add_options([Option(self._row(card), id=str(index)) for index, card in enumerate(self.found)])
        results.highlighted = 0

    @staticmethod
    def _row(card: FoundCard) -> Text:
        """``"Lantern Owl — WitchDraft, companion"``, the name in bold."""
        row = Text(f"{card.entry.name} — {card.game_title}, {card.entry.kind}")
        row.stylize("bold", 0, len(card.entry.name))
        return row

    def on_key(self, event: events.Key) -> None:
        """Down (or up) in the name field moves into the list, as a screen reader expects."""
        if event.key in ("down", "up") and self.focused is self.query_one(Input) and self.found:
            event.stop()
            event.prevent_default()
            self.query_one("#find-results", OptionList).focus()

    @on(Input.Submitted, "#find-query")
    def _submitted(self, event: Input.Submitted) -> None:
        """Enter in the name field shows the highlighted card (the best match)."""
        event.stop()
        card = self.highlighted()
        if card is not None:
            self.show_card(card)

    @on(OptionList.OptionSelected, "#find-results")
    def _chosen(self, event: OptionList.OptionSelected) -> None:
        """Enter (or a click) on a result shows that card."""
        event.stop()
        card = self.highlighted()
        if card is not None:
            self.show_card(card)

    def highlighted(self) -> FoundCard | None:
        """The card highlighted in the list, or None when nothing matches."""
        index = self.query_one("#find-results", OptionList).highlighted
        if index is None or not self.found or index >= len(self.found):
            return None
        return self.found[index]

    def text_of(self, card: FoundCard) -> str:
        """``card``'s whole text, with where it stands now when the screen below can tell."""
        now = None if self.now is None else self.now(card.game_id, card.entry.key)
        return card_words(card, now)

    def show_card(self, card: FoundCard) -> None:
        """Show ``card``'s whole text in place of the list, and focus it so it scrolls by keys."""
        self.shown = card
        self.query_one("#find-card-text", Static).update(plain(self.text_of(card)))
        self.query_one("#find-results").display = False
        scroll = self.query_one("#find-card", VerticalScroll)
        scroll.display = True
        scroll.scroll_home(animate=False)
        scroll.focus()
        self.refresh_bindings()

    def _to_list(self) -> None:
        self.shown = None
        self.refresh_bindings()
        self.query_one("#find-card").display = False
        self.query_one("#find-results").display = True

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """Enter shows a card only while the list is shown (the Footer drops it over a card's text)."""
        if action == "show":
            return self.shown is None
        return True

    def action_show(self) -> None:
        """Show the highlighted card (enter where neither the field nor the list took it)."""
        card = self.highlighted()
        if card is not None and self.shown is None:
            self.show_card(card)

    def action_back(self) -> None:
        """From a card back to the list; from the list, close."""
        if self.shown is not None:
            self._to_list()
            self.query_one("#find-results", OptionList).focus()
            return
        self.dismiss(None)

    def action_say(self) -> None:
        """Say the shown card, or the highlighted one, as a notification (a screen reader reads it)."""
        card = self.shown or self.highlighted()
        text = NOTHING_FOUND if card is None else self.text_of(card)
        self.notify(text, title="Card", timeout=15, markup=False)
