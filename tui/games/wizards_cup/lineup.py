"""Order 5 of your 6 wizards and choose the Waiting Card."""

from __future__ import annotations

from collections.abc import Sequence

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.message import Message
from textual.widget import Widget
from textual.widgets import Label, OptionList, Static
from textual.widgets.option_list import Option

from engine.wizards_cup.cards import CARDS, LINEUP_SIZE
from tui.games.wizards_cup.wizard_card import WizardCard, card_row, wizard_name
from tui.widgets.seat_private import cursor_id, put_cursor, scroll_home
from tui.widgets.styles import load_css


class LineupEditor(Widget):
    """Six slots: positions 1–5 duel in order, the sixth is the Waiting Card."""

    DEFAULT_CSS = load_css(__file__)

    BINDINGS = [
        Binding("shift+up,[", "move(-1)", "Up"),
        Binding("shift+down,]", "move(1)", "Down"),
        Binding("w", "make_waiting", "Waiting Card"),
        Binding("c", "confirm", "Confirm"),
        Binding("h", "coach", "Coach"),
        Binding("ctrl+s", "confirm", "Confirm lineup", show=False),
    ]

    class Confirmed(Message):
        """The player confirmed the five wizards in duel order."""

        def __init__(self, editor: LineupEditor, order: tuple[str, ...]) -> None:
            super().__init__()
            self.editor = editor
            self.order = order

        @property
        def control(self) -> LineupEditor:
            """The editor that sent this."""
            return self.editor

    class CoachAsked(Message):
        """The player asked the coach about the lineup as arranged now."""

        def __init__(self, editor: LineupEditor, order: tuple[str, ...]) -> None:
            super().__init__()
            self.editor = editor
            self.order = order

        @property
        def control(self) -> LineupEditor:
            """The editor that sent this."""
            return self.editor

    _coach_shown = True

    @property
    def coach_shown(self) -> bool:
        """False when the player's setting turned the coach off: ``h`` then neither shows nor answers."""
        return self._coach_shown

    @coach_shown.setter
    def coach_shown(self, shown: bool) -> None:
        if shown != self._coach_shown:
            self._coach_shown = shown
            if self.is_mounted:
                self.refresh_bindings()

    def __init__(self, *, id: str | None = None, classes: str | None = None) -> None:
        super().__init__(id=id, classes=classes)
        self.slots: list[str] = []
        """Six card ids: the duel order, then the Waiting Card."""

    def compose(self) -> ComposeResult:
        with Horizontal():
            with Vertical(id="lu-left"):
                yield Label("", id="lu-title")
                yield OptionList(id="lu-list")
                yield Static(id="lu-explain")
                yield Static(id="lu-help")
            with Vertical(id="lu-right"):
                yield WizardCard(id="lu-card")
                with VerticalScroll(id="lu-scout-box"):
                    yield Static(id="lu-scout")

    def load(self, team: Sequence[str], round_number: int, opponent: str, opponent_displayed: str,
             opponent_seen: Sequence[str]) -> None:
        """Show ``team`` in its current order and what is known of the opponent."""
        self.slots = list(team)
        self.query_one("#lu-title", Label).update(
            Text.assemble((f"Round {round_number}", "bold cyan"), ("  Set your lineup", "bold")))
        self.query_one("#lu-explain", Static).update(Text.assemble(
            ("1–5", "bold"), " duel in this order; a winner stays in the Duel zone. ",
            ("W", "bold yellow"), " is the Waiting Card: it sits the round out, but some powers check it.",
            style="dim"))
        self.query_one("#lu-help", Static).update(Text.assemble(
            ("shift+↑/↓", "bold"), " or ", ("[ ]", "bold"), " move · ", ("w", "bold"), " Waiting · ",
            ("c", "bold"), " confirm", style="dim"))
        scout = Text()
        scout.append(f"{opponent}'s displayed card\n", style="bold")
        scout.append_text(wizard_name(opponent_displayed))
        scout.append(f" {CARDS[opponent_displayed].value}\n", style="bold")
        others = [card for card in opponent_seen if card != opponent_displayed]
        scout.append(f"Seen from {opponent}\n", style="bold")
        if others:
            for card in others:
                scout.append_text(wizard_name(card))
                scout.append(f" {CARDS[card].value}\n", style="bold")
            scout.rstrip()
        else:
            scout.append("nothing yet", style="dim italic")
        self.query_one("#lu-scout", Static).update(scout)
        self._rebuild(0)

    @property
    def order(self) -> tuple[str, ...]:
        """The five wizards in duel order."""
        return tuple(self.slots[:LINEUP_SIZE])

    @property
    def waiting(self) -> str | None:
        """The Waiting Card."""
        return self.slots[LINEUP_SIZE] if len(self.slots) > LINEUP_SIZE else None

    def _rebuild(self, highlight: int) -> None:
        options: list[Option | None] = []
        for index, card in enumerate(self.slots):
            if index < LINEUP_SIZE:
                options.append(Option(card_row(card, f"{index + 1}", "bold"), id=card))
            else:
                row = card_row(card, "W", "bold yellow", timing=False)
                row.append(" Waiting Card", style="yellow")
                options.append(None)
                options.append(Option(row, id=card))
        option_list = self.query_one("#lu-list", OptionList)
        option_list.set_options(options)
        option_list.highlighted = highlight
        self.query_one("#lu-card", WizardCard).card_id = self.slots[highlight] if self.slots else None

    def _cursor(self) -> int:
        highlighted = self.query_one("#lu-list", OptionList).highlighted
        return highlighted if highlighted is not None else 0

    def remember(self) -> str | None:
        """The wizard under the cursor: where this seat left the lineup (kept per seat by the table)."""
        return cursor_id(self.query_one("#lu-list", OptionList))

    def restore(self, card_id: str | None) -> None:
        """Cursor on ``card_id`` (None: the first slot) and the scouting notes from their top, for the seat now looking."""
        option_list = self.query_one("#lu-list", OptionList)
        put_cursor(option_list, card_id)
        self.query_one("#lu-card", WizardCard).card_id = cursor_id(option_list)
        scroll_home(self.query_one("#lu-scout-box"))

    @on(OptionList.OptionHighlighted)
    def _highlighted(self, event: OptionList.OptionHighlighted) -> None:
        """Show the highlighted wizard and its place in the lineup."""
        event.stop()
        card = self.query_one("#lu-card", WizardCard)
        card.card_id = event.option.id
        card.caption = "Waiting Card" if event.option_index == LINEUP_SIZE else f"position {event.option_index + 1}"

    @on(OptionList.OptionSelected)
    def _chosen(self, event: OptionList.OptionSelected) -> None:
        """Enter on a wizard does nothing here; it stops, so no screen above acts on it."""
        event.stop()

    def action_move(self, step: int) -> None:
        """Move the highlighted wizard one slot up (-1) or down (+1)."""
        here = self._cursor()
        there = here + step
        if not self.slots or not 0 <= there < len(self.slots):
            return
        self.slots[here], self.slots[there] = self.slots[there], self.slots[here]
        self._rebuild(there)

    def action_make_waiting(self) -> None:
        """Make the highlighted wizard the Waiting Card; the old one takes its slot."""
        here = self._cursor()
        if not self.slots or here >= LINEUP_SIZE:
            return
        self.slots[here], self.slots[LINEUP_SIZE] = self.slots[LINEUP_SIZE], self.slots[here]
        self._rebuild(LINEUP_SIZE)

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """``h`` only while the coach is on."""
        return self.coach_shown if action == "coach" else True

    def action_coach(self) -> None:
        """Ask the coach about the lineup as arranged now."""
        if len(self.slots) > LINEUP_SIZE:
            self.post_message(self.CoachAsked(self, self.order))

    def action_confirm(self) -> None:
        """Send the five wizards in order."""
        if len(self.slots) > LINEUP_SIZE:
            self.post_message(self.Confirmed(self, self.order))
