"""Between rounds: trade one team wizard for one unused wizard, or keep the team."""

from __future__ import annotations

from collections.abc import Collection, Sequence

from rich.text import Text
from textual import events, on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.message import Message
from textual.reactive import reactive
from textual.widget import Widget
from textual.widgets import Label, OptionList, Static
from textual.widgets.option_list import Option

from engine.wizards_cup.cards import CARDS, WIZARDS
from engine.wizards_cup.rules import team_total
from tui.games.wizards_cup.wizard_card import WizardCard, card_row, wizard_name
from tui.widgets.seat_private import cursor_id, put_cursor
from tui.widgets.styles import load_css

WIDE_FROM = 100
"""From this many columns the two lists widen and show each power's timing, as the team builder's list does."""


def _row(card_id: str, mark: str, mark_style: str, timing: bool = False) -> Text:
    return card_row(card_id, mark, mark_style, timing=timing)


class SwapPicker(Widget):
    """Two lists, your six and the twelve unused; pick one of each, or keep the team."""

    DEFAULT_CSS = load_css(__file__)

    BINDINGS = [
        Binding("space", "pick", "Pick"),
        Binding("c", "confirm", "Swap"),
        Binding("k", "keep", "Keep team"),
        # Tab moves between the two lists only, never on to the log: the hint and the footer say where it goes.
        Binding("tab", "switch_list", "Other list"),
        Binding("shift+tab", "switch_list", "Other list", show=False),
        Binding("left", "to_list('sp-team')", "Swap out list", show=False),
        Binding("right", "to_list('sp-pool')", "Take in list", show=False),
    ]

    class Decided(Message):
        """The player chose: ``out``/``take`` for a swap, both None to keep the team."""

        def __init__(self, picker: SwapPicker, out: str | None, take: str | None) -> None:
            super().__init__()
            self.picker = picker
            self.out = out
            self.take = take

        @property
        def control(self) -> SwapPicker:
            """The picker that sent this."""
            return self.picker

    out: reactive[str | None] = reactive(None, init=False)
    """The team wizard chosen to leave."""
    take: reactive[str | None] = reactive(None, init=False)
    """The unused wizard chosen to join."""
    message: reactive[str] = reactive("", init=False)
    """The latest validation message."""

    def __init__(self, *, id: str | None = None, classes: str | None = None) -> None:
        super().__init__(id=id, classes=classes)
        self.team: list[str] = []
        self.displayed = ""
        self.allowed_out: set[str] = set()
        self.allowed_in: set[str] = set()

    def compose(self) -> ComposeResult:
        with Horizontal():
            with Vertical(id="sp-out"):
                yield Label("Swap out", classes="sp-heading")
                yield OptionList(id="sp-team")
                yield Static(id="sp-total")
            with Vertical(id="sp-in"):
                yield Label("Take in", classes="sp-heading")
                yield OptionList(id="sp-pool")
            with Vertical(id="sp-right"):
                yield WizardCard(id="sp-card")
                yield Static(id="sp-choice")

    def load(self, team: Sequence[str], displayed: str, allowed_out: Collection[str],
             allowed_in: Collection[str]) -> None:
        """Show ``team`` and the unused wizards; only the ``allowed_*`` ones can be picked."""
        self.team, self.displayed = list(team), displayed
        self.allowed_out, self.allowed_in = set(allowed_out), set(allowed_in)
        self.out = self.take = None
        self.message = ""
        self._rebuild()

    @property
    def unused(self) -> list[str]:
        """The wizards not in the team, in set order."""
        return [w.card_id for w in WIZARDS if w.card_id not in self.team]

    def on_resize(self) -> None:
        """A wide terminal gives the lists the room of the team builder's, with the timings."""
        wide = self.size.width >= WIDE_FROM
        if wide != self.has_class("-wide"):
            self.set_class(wide, "-wide")
            self._rebuild()

    def _rebuild(self) -> None:
        timing = self.has_class("-wide")
        for list_id, cards, chosen in (("#sp-team", self.team, self.out), ("#sp-pool", self.unused, self.take)):
            option_list = self.query_one(list_id, OptionList)
            highlighted = option_list.highlighted or 0
            rows = []
            for card in cards:
                if card == self.displayed:
                    rows.append(Option(_row(card, "◆", "bold cyan", timing), id=card))
                elif card == chosen:
                    rows.append(Option(_row(card, "✓", "bold green", timing), id=card))
                else:
                    rows.append(Option(_row(card, "·", "dim", timing), id=card))
            option_list.set_options(rows)
            option_list.highlighted = min(highlighted, len(rows) - 1) if rows else None
        self._summary()

    def _summary(self) -> None:
        team = [self.take if card == self.out and self.take else card for card in self.team]
        total = Text.assemble(("Team total ", "bold"), (str(team_total(team)), "bold cyan"))
        if self.out and self.take:
            total.append(f" (now {team_total(self.team)})", style="dim")
        total.append("\nIf both players reach the Cup Tokens together, the lower total wins.", style="dim")
        self.query_one("#sp-total", Static).update(total)
        text = Text()
        text.append("Out ", style="bold")
        text.append_text(wizard_name(self.out) if self.out else Text("—", style="dim"))
        text.append("\nIn  ", style="bold")
        text.append_text(wizard_name(self.take) if self.take else Text("—", style="dim"))
        text.append("\n\n")
        if self.message:
            text.append(self.message, style="bold yellow")
        elif self.out and self.take:
            text.append("c confirm the swap\nk keep the team", style="bold green")
        else:
            # Focus moves only when the player asks (tab, ← →); the hint names the list tab goes to from here.
            other = "Swap out" if self.query_one("#sp-pool", OptionList).has_focus else "Take in"
            text.append(f"space pick\ntab to {other}\nk keep the team", style="dim")
        self.query_one("#sp-choice", Static).update(text)

    def watch_out(self) -> None:
        self._rebuild()

    def watch_take(self) -> None:
        self._rebuild()

    def watch_message(self) -> None:
        self._summary()

    def remember(self) -> tuple[str | None, str | None, bool]:
        """Where this seat left the cursors of both lists, and whether the take-in list had the keyboard."""
        pool = self.query_one("#sp-pool", OptionList)
        return cursor_id(self.query_one("#sp-team", OptionList)), cursor_id(pool), pool.has_focus

    def restore(self, memo: tuple[str | None, str | None, bool] | None) -> None:
        """Put both cursors where the seat now looking left them (None: at the top of each list)."""
        team_cursor, pool_cursor, in_pool = memo or (None, None, False)
        team, pool = self.query_one("#sp-team", OptionList), self.query_one("#sp-pool", OptionList)
        put_cursor(team, team_cursor)
        put_cursor(pool, pool_cursor)
        self._show_card(pool if in_pool else team)

    @on(OptionList.OptionHighlighted)
    def _highlighted(self, event: OptionList.OptionHighlighted) -> None:
        """Show the highlighted wizard, unless the cursor moved in the list the keyboard is not in."""
        event.stop()
        if event.option_list.has_focus or not isinstance(self.screen.focused, OptionList):
            self._show_card(event.option_list)

    def on_descendant_focus(self, event: events.DescendantFocus) -> None:
        if isinstance(event.widget, OptionList):
            self._show_card(event.widget)
            self._summary()

    def action_switch_list(self) -> None:
        """Move the keyboard to the other list."""
        pool = self.query_one("#sp-pool", OptionList)
        self.action_to_list("sp-team" if pool.has_focus else "sp-pool")

    def action_to_list(self, list_id: str) -> None:
        """Move the keyboard to the list ``list_id`` ("sp-team" or "sp-pool")."""
        if list_id in ("sp-team", "sp-pool"):
            self.query_one(f"#{list_id}", OptionList).focus()

    def _show_card(self, option_list: OptionList) -> None:
        """Show the highlighted wizard of ``option_list`` in the card."""
        option = option_list.highlighted_option
        card = self.query_one("#sp-card", WizardCard)
        card.card_id = option.id if option else None
        in_team = option_list.id == "sp-team"
        card.caption = "displayed · stays" if card.card_id == self.displayed else (
            "in your team" if in_team else "unused")

    @on(OptionList.OptionSelected)
    def _chosen(self, event: OptionList.OptionSelected) -> None:
        """Enter (or a click) picks the wizard from its list."""
        event.stop()
        if event.option.id:
            self.pick(event.option.id, event.option_list.id == "sp-team")

    def action_pick(self) -> None:
        """Pick the highlighted wizard of the focused list."""
        focused = self.screen.focused
        if isinstance(focused, OptionList) and focused.highlighted_option and focused.highlighted_option.id:
            self.pick(focused.highlighted_option.id, focused.id == "sp-team")

    def pick(self, card_id: str, from_team: bool) -> None:
        """Choose ``card_id`` to leave (``from_team``) or to join; picking it again unpicks it."""
        if from_team:
            if card_id == self.displayed:
                self.message = "The displayed card always stays in your team"
            elif card_id not in self.allowed_out:
                self.message = f"{CARDS[card_id].name} can't be swapped out"
            else:
                self.message = ""
                self.out = None if self.out == card_id else card_id  # the keyboard stays here: tab moves it
        elif card_id not in self.allowed_in:
            self.message = f"{CARDS[card_id].name} can't join now"
        else:
            self.message = ""
            self.take = None if self.take == card_id else card_id

    def action_confirm(self) -> None:
        """Send the swap once both wizards are picked."""
        if not self.out:
            self.message = "Pick a wizard to swap out (or k to keep)"
        elif not self.take:
            self.message = "Pick a wizard to take in (or k to keep)"
        else:
            self.post_message(self.Decided(self, self.out, self.take))

    def action_keep(self) -> None:
        """Keep the team as it is."""
        self.post_message(self.Decided(self, None, None))
