"""Wizards Cup results: the round summary modal and the final screen."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from rich.console import RenderableType
from rich.table import Table
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Static

from engine import Event, Result
from engine.wizards_cup.cards import CARDS
from engine.wizards_cup.rules import team_total
from engine.wizards_cup.state import PlayerView, WizardsCupView
from tui.games.wizards_cup.duel_zone import duel_sentence, step_badge, tokens_text
from tui.games.wizards_cup.wizard_card import wizard_name
from tui.widgets.element_look import victory_hue
from tui.widgets.fitted import FittedLine, share_width
from tui.widgets.fitting_footer import FittingFooter
from tui.widgets.game_over import GameOverScreen
from tui.widgets.styles import css_beside


def _round_of(events: Sequence[Event], view: WizardsCupView) -> int:
    ends = [event for event in events if event.kind == "round_end"]
    return int(ends[-1].data.get("round", view.round)) if ends else view.round


def duel_lines(events: Sequence[Event], round_number: int, names: Sequence[str]) -> RenderableType:
    """One row per duel of ``round_number``: number, deciding step and the sentence."""
    duels = [e for e in events if e.kind == "duel" and e.data.get("round") == round_number]
    if not duels:
        return Text("No duels recorded.", style="dim italic")
    grid = Table.grid(padding=(0, 1))
    grid.add_column(justify="right", style="bold")
    grid.add_column(width=9)
    grid.add_column(ratio=1)
    for event in sorted(duels, key=lambda e: int(e.data.get("duel", 0))):
        grid.add_row(str(event.data.get("duel")), step_badge(str(event.data.get("step", ""))),
                     duel_sentence(event.data, names))
    return grid


def _tokens_line(view: WizardsCupView) -> Callable[[int], Text]:
    """"Cup Tokens  Ana ● ○     Bo ○ ○" for a given width: the names are cut, never the tokens."""
    label = Text("Cup Tokens  ", style="bold")
    tokens = [tokens_text(player.tokens, view.tokens_to_win) for player in view.players]
    gaps = 5 * (len(tokens) - 1) + len(tokens)  # between the seats, and one before each seat's tokens

    def build(width: int) -> Text:
        room = width - label.cell_len - gaps - sum(each.cell_len for each in tokens)
        names = share_width([player.name for player in view.players], max(room, len(tokens)))
        text = label.copy()
        for seat, name in enumerate(names):
            if seat:
                text.append("     ")
            text.append(f"{name} ", style="bold")
            text.append_text(tokens[seat])
        return text

    return build


class RoundResultScreen(ModalScreen[None]):
    """Who won the round and a Cup Token, every duel with its reason, and the tokens now."""
    HELP_TITLE = "Round over"
    HELP = "Who won the round and why, duel by duel. Close it to go on with the next round."

    CSS_PATH = css_beside(__file__, "results.tcss")

    BINDINGS = [
        Binding("enter", "close", "Continue"),
        Binding("escape", "close", "Continue", show=False),
    ]

    def __init__(self, view: WizardsCupView, events: Sequence[Event]) -> None:
        super().__init__()
        self.view = view
        self.events = list(events)

    def compose(self) -> ComposeResult:
        view = self.view
        names = [player.name for player in view.players]
        number = _round_of(self.events, view)
        winners = list(view.round_winners)
        ends = [e for e in self.events if e.kind == "round_end" and e.data.get("round") == number]
        if ends:
            winners = [int(seat) for seat in ends[-1].data.get("winners", winners)]
        title = Text(f"Round {number} · ", style="bold")
        if len(winners) == 1:
            title.append(f"{names[winners[0]]} wins the round and a Cup Token", style=f"bold {victory_hue()}")
        elif winners:
            title.append("both win the round and a Cup Token", style=f"bold {victory_hue()}")
        # The dialog scrolls (↑ ↓) when a small terminal cannot hold every duel; the tokens and the hint stay
        # docked at its foot, so no long name or long round pushes them out of view.
        with VerticalScroll(id="rr-dialog"):
            with Vertical(id="rr-foot"):
                yield FittedLine(_tokens_line(view), id="rr-tokens")
                yield Static(Text("enter: continue · ↑ ↓ scroll", style="dim"), id="rr-hint")
            yield Static(title, id="rr-title")
            if ends:
                yield Static(Text(ends[-1].text, style="italic"), id="rr-why")
            yield Static(duel_lines(self.events, number, names), id="rr-duels")

    def action_close(self) -> None:
        """Close the summary."""
        self.dismiss(None)


def _team_block(player: PlayerView, seat: int, view: WizardsCupView, winner: bool, draw: bool) -> Text:
    text = Text()
    text.append(player.name, style=f"bold {victory_hue()}" if winner else "bold")
    # The outcome in words as well as in gold, so it reads without colour.
    text.append("" if draw else " ★ won" if winner else " · lost", style="bold" if winner else "")
    text.append("  ")
    text.append_text(tokens_text(player.tokens, view.tokens_to_win))
    text.append("\n")
    if player.team:
        text.append(f"Team total {team_total(player.team)} · ◆ displayed\n", style="dim")
        cards = list(player.team)
    else:
        cards = [player.displayed, *(card for card in player.seen if card != player.displayed)]
        text.append("Team hidden · seen in play:\n", style="dim")
    for card in cards:
        text.append("  ")
        text.append_text(wizard_name(card))
        text.append(f" {CARDS[card].value}", style="bold")
        if card == player.displayed:
            text.append(" ◆", style="cyan")
        if card == player.waiting:  # the end of the game turns every Waiting Card up: mark it in words
            text.append(" waiting", style="bold yellow")
        text.append("\n")
    text.rstrip()
    return text


class WizardsCupResultScreen(GameOverScreen):
    """The end of the game: winner or draw with the engine's reason, tokens and teams."""

    CSS_PATH = css_beside(__file__, "results.tcss")

    def __init__(self, view: WizardsCupView, result: Result, events: Sequence[Event] = ()) -> None:
        super().__init__()
        self.view = view
        self.result = result
        self.events = list(events)

    def compose(self) -> ComposeResult:
        view, result = self.view, self.result
        names = [player.name for player in view.players]
        if result.is_draw:
            title = Text("The Cup is shared: a draw", style=f"bold {victory_hue()}")
        else:
            title = Text(" and ".join(names[seat] for seat in result.winners) + " wins the Wizards Cup!",
                         style=f"bold {victory_hue()}")
        with Vertical(id="gr-box"):
            yield Static(Text.assemble(("★ ", victory_hue()), title, (" ★", victory_hue())), id="gr-title")
            yield Static(Text(result.reason, style="italic"), id="gr-reason")
            with Horizontal(id="gr-teams"):
                for seat, player in enumerate(view.players):
                    yield Static(_team_block(player, seat, view, seat in result.winners, result.is_draw), classes="gr-team")
            last = _round_of(self.events, view)
            if any(e.kind == "duel" for e in self.events):
                yield Static(Text(f"Round {last}, the last round", style="bold"), id="gr-round")
                with VerticalScroll(id="gr-duels"):
                    yield Static(duel_lines(self.events, last, names))
        yield FittingFooter()


__all__ = ["RoundResultScreen", "WizardsCupResultScreen", "duel_lines"]
