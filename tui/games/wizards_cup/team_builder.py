"""The deck editor: pick 5 of the 17 wizards to join the displayed card."""

from __future__ import annotations

from collections.abc import Iterable

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.message import Message
from textual.reactive import reactive
from textual.widget import Widget
from textual.widgets import Label, OptionList, Static
from textual.widgets.option_list import Option

from engine.wizards_cup.cards import CARDS, PICKS, WIZARDS
from tui.games.wizards_cup.wizard_card import WizardCard, card_row, wizard_name
from tui.widgets.seat_private import cursor_id, put_cursor
from tui.widgets.styles import load_css

OWNER_WIDTH = 10
"""Cells for the opponent's name after their displayed card's row in the list."""


class TeamBuilder(Widget):
    """Browse the 18 wizards, pick 5 to join the locked displayed card, confirm."""

    DEFAULT_CSS = load_css(__file__)

    BINDINGS = [
        Binding("space", "toggle_pick", "Pick"),
        Binding("c", "confirm", "Confirm"),
        Binding("ctrl+s", "confirm", "Confirm team", show=False),
    ]

    class Confirmed(Message):
        """The player confirmed 5 picks (in set order)."""

        def __init__(self, builder: TeamBuilder, cards: tuple[str, ...]) -> None:
            super().__init__()
            self.builder = builder
            self.cards = cards

        @property
        def control(self) -> TeamBuilder:
            """The builder that sent this."""
            return self.builder

    message: reactive[str] = reactive("")
    """The latest validation message, shown under the team summary."""

    def __init__(self, *, id: str | None = None, classes: str | None = None) -> None:
        super().__init__(id=id, classes=classes)
        self.displayed: str = WIZARDS[0].card_id
        self.picks: list[str] = []
        self.opponent = ""
        self.opponent_displayed: str | None = None
        """The other player's displayed card: public from the start, so shown while picking."""

    def compose(self) -> ComposeResult:
        with Horizontal():
            with Vertical(id="tb-left"):
                yield Label("", id="tb-title")
                yield OptionList(id="tb-list")
            with Vertical(id="tb-right"):
                yield WizardCard(id="tb-card")
                yield Static(id="tb-team")
                yield Static(id="tb-message")
                yield Static(id="tb-opponent")

    def load(self, displayed: str, picks: Iterable[str] = (), *, opponent: str = "",
             opponent_displayed: str | None = None) -> None:
        """Start over with ``displayed`` locked in and ``picks`` already chosen.

        ``opponent`` and ``opponent_displayed`` name the other player and their
        displayed card, which everyone sees before picking.
        """
        self.displayed = displayed
        self.opponent, self.opponent_displayed = opponent, opponent_displayed
        self.picks = [card for card in picks if card != displayed][:PICKS]
        self.message = ""
        option_list = self.query_one("#tb-list", OptionList)
        highlighted = option_list.highlighted or 0
        option_list.set_options(Option(self._row(w.card_id), id=w.card_id) for w in WIZARDS)
        option_list.highlighted = highlighted
        self._refresh_summary()
        self._show_opponent()

    @property
    def highlighted_card(self) -> str | None:
        """The card under the list cursor."""
        option = self.query_one("#tb-list", OptionList).highlighted_option
        return option.id if option else None

    def _row(self, card_id: str) -> Text:
        if card_id == self.displayed:
            row = card_row(card_id, "◆", "bold cyan")
        elif card_id in self.picks:
            row = card_row(card_id, "✓", "bold green")
        else:
            row = card_row(card_id, "·", "dim")
        if card_id == self.opponent_displayed:
            owner = Text(self.opponent or "opponent")
            owner.truncate(OWNER_WIDTH, overflow="ellipsis")
            row.append_text(Text.assemble((" ◇ ", "bold magenta"), owner, style="magenta"))
        return row

    def _show_opponent(self) -> None:
        """Two lines (each cut, never wrapped, by the stylesheet): whose displayed card, then the card."""
        shown = Text()
        if self.opponent_displayed is not None:
            shown.append(f"{self.opponent or 'Opponent'}'s displayed card", style="bold")
            shown.append("\n◇ ", style="bold magenta")
            shown.append_text(wizard_name(self.opponent_displayed))
            shown.append(f" {CARDS[self.opponent_displayed].value}", style="bold")
        self.query_one("#tb-opponent", Static).update(shown)

    def _refresh_row(self, card_id: str) -> None:
        option_list = self.query_one("#tb-list", OptionList)
        option_list.replace_option_prompt(card_id, self._row(card_id))

    def _refresh_summary(self) -> None:
        team = [self.displayed, *self.picks]
        self.query_one("#tb-title", Label).update(
            Text.assemble(("Choose your team  ", "bold"), (f"{len(team)}/6", "bold cyan"),
                          ("    ◆ displayed  ✓ picked", "dim")))
        summary = Text()
        for index in range(PICKS + 1):
            if index < len(team):
                summary.append_text(wizard_name(team[index]))
                summary.append(f" {CARDS[team[index]].value}", style="bold")
                if index == 0:
                    summary.append("  displayed", style="dim italic")
            else:
                summary.append("· empty", style="dim")
            summary.append("\n")
        summary.rstrip()
        self.query_one("#tb-team", Static).update(summary)
        if not self.message:
            self._show_hint()

    def _show_hint(self) -> None:
        missing = PICKS - len(self.picks)
        hint = f"Pick {missing} more" if missing else "Ready: press c to confirm"
        self.query_one("#tb-message", Static).update(Text(hint, style="bold" if missing else "bold green"))
        self.set_class(False, "-error")

    def watch_message(self, message: str) -> None:
        if not self.is_mounted:
            return
        if message:
            self.query_one("#tb-message", Static).update(Text(message, style="bold"))
            self.set_class(True, "-error")
        else:
            self._show_hint()

    def remember(self) -> str | None:
        """The wizard under the cursor: where this seat left the list (kept per seat by the table)."""
        return cursor_id(self.query_one("#tb-list", OptionList))

    def restore(self, card_id: str | None) -> None:
        """Put the cursor and the card pane on ``card_id`` (None: the first wizard) for the seat now looking."""
        option_list = self.query_one("#tb-list", OptionList)
        put_cursor(option_list, card_id)
        self.query_one("#tb-card", WizardCard).card_id = cursor_id(option_list)

    @on(OptionList.OptionHighlighted)
    def _highlighted(self, event: OptionList.OptionHighlighted) -> None:
        """Show the highlighted wizard."""
        event.stop()
        self.query_one("#tb-card", WizardCard).card_id = event.option.id

    @on(OptionList.OptionSelected)
    def _chosen(self, event: OptionList.OptionSelected) -> None:
        """Enter (or a click) picks or unpicks the wizard."""
        event.stop()
        if event.option.id:
            self.toggle(event.option.id)

    def action_toggle_pick(self) -> None:
        """Pick or unpick the highlighted wizard."""
        card = self.highlighted_card
        if card:
            self.toggle(card)

    def toggle(self, card_id: str) -> None:
        """Pick or unpick ``card_id``, refusing what the team can't take."""
        if card_id == self.displayed:
            self.message = "Your displayed card stays in"
            return
        if card_id in self.picks:
            self.picks.remove(card_id)
        elif len(self.picks) >= PICKS:
            self.message = f"You have {PICKS}: unpick one first"
            return
        else:
            self.picks.append(card_id)
        self.message = ""
        self._refresh_row(card_id)
        self._refresh_summary()

    def action_confirm(self) -> None:
        """Send the team if it has exactly 5 picks."""
        missing = PICKS - len(self.picks)
        if missing:
            self.message = f"Pick {missing} more"
            return
        order = {w.card_id: index for index, w in enumerate(WIZARDS)}
        self.post_message(self.Confirmed(self, tuple(sorted(self.picks, key=order.__getitem__))))
