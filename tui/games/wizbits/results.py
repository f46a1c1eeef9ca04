"""Wizbits' final screen: who won and why, each side's Main Character and the last checks."""

from __future__ import annotations

from collections.abc import Sequence

from rich.text import Text
from textual.app import ComposeResult
from textual.containers import Vertical
from textual.widgets import Static

from engine import Event, Result
from engine.wizbits.views import WizbitsView
from tui.games.wizbits.dice_log import check_line
from tui.games.wizbits.side import side_text
from tui.safe_text import markup_safe
from tui.widgets.element_look import victory_hue
from tui.widgets.fitting_footer import FittingFooter
from tui.widgets.game_over import GameOverScreen
from tui.widgets.styles import css_beside


class WizbitsResultScreen(GameOverScreen):
    """The end of a Wizbits game: the winner, the reason, both sides and the checks that decided it."""

    CSS_PATH = css_beside(__file__, "results.tcss")

    def __init__(self, view: WizbitsView, result: Result, events: Sequence[Event]) -> None:
        super().__init__()
        self.view = view
        self.result = result
        self.events = list(events)

    def compose(self) -> ComposeResult:
        view, result = self.view, self.result
        names = [player.name for player in view.players]
        winner = f"{names[result.winners[0]]} wins!" if result.winners else "Nobody wins."
        with Vertical(id="wr-box"):
            yield Static(Text.assemble(("★ ", victory_hue()), (winner, f"bold {victory_hue()}"), (" ★", victory_hue())), id="wr-title")
            yield Static(Text(result.reason or view.reason, style="italic"), id="wr-reason")
            for seat, player in enumerate(view.players):
                side = Static(side_text(view, seat, brief=True), classes="wr-side")
                outcome = "" if result.is_draw else " ★ won" if seat in result.winners else " · lost"
                side.border_title = markup_safe(player.name) + outcome
                yield side
            checks = [event for event in self.events if event.kind == "check"][-3:]
            if checks:
                yield Static(Text("The last checks", style="bold"), id="wr-checks-title")
                for event in checks:
                    yield Static(check_line(event.data, names), classes="wr-check")
        yield FittingFooter()


__all__ = ["WizbitsResultScreen"]
