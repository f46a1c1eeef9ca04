"""The table during the duels: both wizards, decks, discards, tokens, and why the last duel ended."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from rich.text import Text
from textual.app import ComposeResult
from textual.containers import Horizontal, Vertical
from textual.reactive import reactive
from textual.widget import Widget
from textual.widgets import Label, Static

from engine.core.words import plural
from engine.wizards_cup.cards import CARDS, Timing
from engine.wizards_cup.state import Phase, PlayerView, WizardsCupView
from tui.games.wizards_cup.wizard_card import WizardCard, wizard_name
from tui.widgets.element_look import victory_hue
from tui.widgets.fitted import FittedLine, cut_to_width
from tui.widgets.styles import load_css

STEP_STYLES: dict[str, str] = {
    "power": "bold #1e1e1e on #d08cff",
    "element": "bold #1e1e1e on #5fd7ff",
    "value": "bold #1e1e1e on #ffd75e",
}
"""Badge style for the step (A power, B element, C value) that decided a duel."""


def tokens_text(tokens: int, to_win: int) -> Text:
    """Cup Tokens as ``● ○`` up to ``to_win``."""
    text = Text()
    for index in range(max(to_win, tokens)):
        text.append("● " if index < tokens else "○ ", style=f"bold {victory_hue()}" if index < tokens else "dim")
    text.rstrip()
    return text


def step_badge(step: str) -> Text:
    """`` POWER `` / `` ELEMENT `` / `` VALUE `` in the step's colour."""
    return Text(f" {step.upper()} ", style=STEP_STYLES.get(step, "reverse"))


def duel_sentence(data: Mapping[str, Any], names: Sequence[str]) -> Text:
    """"Ember Adept (Ana) beats Mist Warden (Bo): Fire beats Nature" from a duel event's data."""
    cards = [str(card) for card in data.get("cards", ())]
    if len(cards) != 2:
        return Text(str(data.get("why", "")))
    labels = []
    for seat, card in enumerate(cards):
        label = wizard_name(card, bold=True)
        label.append(f" ({names[seat]})", style="not bold")
        labels.append(label)
    winner = data.get("winner")
    if winner in (0, 1):
        text = Text.assemble(labels[winner], " beats ", labels[1 - winner])
    else:
        text = Text.assemble(labels[0], " and ", labels[1], " are both discarded")
    text.append(f": {data.get('why', '')}")
    return text


class DuelZone(Widget):
    """Both sides of the table: the wizards in the Duel zone, decks, discards and Cup Tokens."""

    DEFAULT_CSS = load_css(__file__)

    status: reactive[str] = reactive("")
    """The bottom line: who we are waiting for, or the duel keys."""

    def __init__(self, *, id: str | None = None, classes: str | None = None) -> None:
        super().__init__(id=id, classes=classes)
        self.last_duel: Mapping[str, Any] | None = None
        """Data of the most recent duel event, for the reason line."""
        self.view: WizardsCupView | None = None

    def compose(self) -> ComposeResult:
        yield Label("", id="dz-title")
        with Horizontal(id="dz-sides"):
            for seat in (0, 1):
                if seat:
                    yield Static("VS", id="dz-vs")
                with Vertical(classes="dz-side", id=f"dz-side-{seat}"):
                    yield FittedLine(classes="dz-name")
                    yield WizardCard(empty_text="Duel zone empty", classes="dz-card")
                    yield Static(classes="dz-piles")
        yield Static(id="dz-reason")
        yield Static(id="dz-status")

    def watch_status(self, status: str) -> None:
        if self.is_mounted:
            self.query_one("#dz-status", Static).update(Text(status, style="bold"))

    def show_duel(self, data: Mapping[str, Any] | None) -> None:
        """Remember the last duel (event data) and redraw."""
        self.last_duel = data
        if self.view is not None:
            self.show_view(self.view)

    def show_view(self, view: WizardsCupView) -> None:
        """Redraw everything from ``view`` (and the remembered last duel)."""
        self.view = view
        names = [player.name for player in view.players]
        last = self.last_duel
        if last is not None and (last.get("round") != view.round or view.phase not in (Phase.DUEL, Phase.SWAP,
                                                                                          Phase.OVER)):
            last = None
        self.query_one("#dz-title", Label).update(self._title(view))
        for seat, player in enumerate(view.players):
            side = self.query_one(f"#dz-side-{seat}", Vertical)
            side.query_one(".dz-name", FittedLine).show(self._name_line(view, seat, player))
            self._draw_card(side.query_one(WizardCard), player, seat, last, view.phase)
            side.query_one(".dz-piles", Static).update(self._piles(player, view.seat == seat))
        reason = Text()
        if last is not None:
            reason.append(f"Duel {last.get('duel')} ", style="bold")
            reason.append_text(step_badge(str(last.get("step", ""))))
            reason.append(" ")
            reason.append_text(duel_sentence(last, names))
        elif view.phase is Phase.DUEL:
            reason.append("Lineups are set. The first duel is about to begin.", style="italic")
        self.query_one("#dz-reason", Static).update(reason)

    @staticmethod
    def _name_line(view: WizardsCupView, seat: int, player: PlayerView) -> Callable[[int], Text]:
        """The side's header for a given width: the name, cut to leave the Cup Tokens (and "ready") whole."""
        rest = Text()
        if view.seat == seat and player.name.casefold() != "you":
            rest.append(" (you)", style="dim")
        rest.append("  ")
        rest.append_text(tokens_text(player.tokens, view.tokens_to_win))
        if player.ready:
            rest.append("  ✓ ready", style="green")

        def build(width: int) -> Text:
            line = Text(cut_to_width(player.name, max(width - rest.cell_len, 1)), style="bold")
            line.append_text(rest)
            return line

        return build

    @staticmethod
    def _title(view: WizardsCupView) -> Text:
        title = Text()
        if view.round:
            title.append(f"Round {view.round}", style="bold cyan")
        phase = {Phase.TEAM: "Choosing teams", Phase.LINEUP: "Setting lineups", Phase.SWAP: "Swaps",
                 Phase.OVER: "Game over"}.get(view.phase)
        if view.phase is Phase.DUEL:
            title.append(f" · Duel {view.duel}" if view.duel else " · ready", style="bold")
        elif phase:
            title.append(f" · {phase}" if view.round else phase, style="bold")
        title.append(f"   first to {plural(view.tokens_to_win, 'Cup Token')}", style="dim")
        return title

    @staticmethod
    def _draw_card(card: WizardCard, player: PlayerView, seat: int, last: Mapping[str, Any] | None,
                   phase: Phase) -> None:
        card.remove_class("-discarded", "-winner")
        shown = player.zone
        caption = "in the Duel zone" if shown else ""
        if shown is None and phase in (Phase.TEAM, Phase.LINEUP):
            shown, caption = player.displayed, "displayed card"
        if last is not None:
            cards = list(last.get("cards", ()))
            winner = last.get("winner")
            if len(cards) == 2 and shown == cards[seat] and winner == seat:
                caption = f"✓ won duel {last.get('duel')}"
                card.add_class("-winner")
            elif shown is None and len(cards) == 2 and player.discard and player.discard[-1] == cards[seat]:
                shown, caption = cards[seat], "✗ discarded"
                card.add_class("-discarded")
        card.card_id = shown
        card.caption = caption

    @staticmethod
    def _piles(player: PlayerView, mine: bool) -> Text:
        text = Text()
        text.append("Deck    ", style="bold")
        text.append("▮" * player.deck_count or "—", style="#8a8aff")
        text.append(f" {player.deck_count}")
        if mine and player.deck:
            text.append(" next ", style="dim")
            text.append_text(wizard_name(player.deck[0]))
        text.append("\nDiscard ", style="bold")
        text.append("▮" * len(player.discard) or "—", style="#a06060")
        text.append(f" {len(player.discard)}")
        if player.discard:
            top = CARDS[player.discard[-1]]
            text.append(" top ", style="dim")
            text.append_text(wizard_name(top.card_id))
            if top.power is not None and top.power.timing is Timing.DISCARD:
                text.append(" ✦", style="bold #d08cff")
        text.append("\nWaiting ", style="bold")
        if player.waiting:  # the view holds it only for its owner, and for everyone once the game is over
            text.append_text(wizard_name(player.waiting))
        else:
            text.append("hidden" if player.team is None else "—", style="dim italic")
        return text
