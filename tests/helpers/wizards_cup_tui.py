"""Shared by test_wizards_cup_tui.py and other test modules, which import them from here.

ANA_TEAM, BO_TEAM, Game, SEED, TableApp, duel_app, lineup_round2_app, swap_game, team_app, tiebreak_game, moved here
from tests/tui/wizards_cup/test_wizards_cup_tui.py.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from textual.app import App, ComposeResult
from textual.containers import Vertical
from textual.widgets import Footer, Static

from engine import Event, Result, get_game
from engine.wizards_cup.actions import Action
from engine.wizards_cup.state import Phase, WizardsCupView
from tui.games.base import GameTable
from tui.games.wizards_cup.table import WizardsCupTable

SPEC = get_game("wizards-cup")
RULES = SPEC.rules
SEED = 7
"""Seat 0 (Ana) displays Pyre Lord, seat 1 (Bo) displays Echo Warden."""

ANA_TEAM = ["dawn-acolyte", "tide-caller", "thornmother", "lantern-knight", "mist-warden"]
BO_TEAM = ["ember-adept", "umbral-tyrant", "starless-oracle", "thornmother", "moss-hermit"]


class Game:
    """Drives the engine with fixed actions and records every event."""

    def __init__(self, tokens_to_win: int = 2) -> None:
        self.state = SPEC.new_state({"tokens_to_win": tokens_to_win}, SEED, 2, ["Ana", "Bo"])
        self.events: list[Event] = []

    def act(self, seat: int | None, action: dict[str, Any]) -> list[Event]:
        self.state, events = RULES.apply(self.state, seat, action)
        self.events += events
        return events

    def view(self, seat: int | None) -> WizardsCupView:
        return RULES.view(self.state, seat)  # type: ignore[no-any-return]

    def legal(self, seat: int | None) -> list[Any]:
        return RULES.legal_actions(self.state, seat)

    def teams(self) -> None:
        self.act(0, {"type": "team", "cards": ANA_TEAM})
        self.act(1, {"type": "team", "cards": BO_TEAM})

    def lineups(self) -> None:
        for seat in (0, 1):
            team = list(self.state.players[seat].team)
            self.act(seat, {"type": "lineup", "order": team[:5]})

    def duels(self, count: int | None = None) -> list[Event]:
        events: list[Event] = []
        while RULES.table_action(self.state) is not None and (count is None or count > 0):
            events += self.act(None, {"type": "duel"})
            count = None if count is None else count - 1
        return events


class TableApp(App[None]):
    """Mounts one table the way the game screen does: status line, table, 6-line log, footer.

    With ``log=False`` the table gets the rows the log would take (the game screen's ``l`` key).
    """

    CSS = """
    #status { height: 1; background: $panel; padding: 0 1; }
    #area { height: 1fr; }
    #log { height: 7; border-top: solid $accent; padding: 0 1; color: $text-muted; }
    """

    def __init__(self, view: Any, seat: int | None, legal: Sequence[Any] = (),
                 events: Sequence[Event] = (), log: bool = True) -> None:
        super().__init__()
        self.table = WizardsCupTable()
        self.start = (view, seat, list(legal), list(events))
        self.log_shown = log
        self.chosen: list[tuple[int, dict[str, Any]]] = []

    def compose(self) -> ComposeResult:
        yield Static("Wizards Cup · a test table", id="status")
        with Vertical(id="area"):
            yield self.table
        if self.log_shown:
            yield Static("\n".join(event.text for event in self.start[3][-6:]), id="log")
        yield Footer()

    def on_mount(self) -> None:
        view, seat, legal, events = self.start
        self.table.show_events(events)
        self.table.show(view, seat, legal)

    def on_game_table_action_chosen(self, message: GameTable.ActionChosen[Action]) -> None:
        self.chosen.append((message.seat, RULES.action_to_json(message.action)))


def team_app() -> TableApp:
    game = Game()
    return TableApp(game.view(0), 0, game.legal(0))


def lineup_round2_app() -> TableApp:
    game = swap_game()
    game.act(0, {"type": "keep"})
    game.act(1, {"type": "keep"})
    return TableApp(game.view(0), 0, game.legal(0), game.events)


def duel_app(duels: int = 3, log: bool = True) -> TableApp:
    game = Game()
    game.teams()
    game.lineups()
    game.duels(duels)
    return TableApp(game.view(0), None, (), game.events, log=log)


def swap_game() -> Game:
    game = Game()
    game.teams()
    game.lineups()
    game.duels()
    return game


COMMON = ["mist-warden", "deepwater-regent", "brine-witch", "cinder-duelist", "lantern-knight"]
"""Both players field the same five: every duel discards both, so both win every round."""


def tiebreak_game() -> tuple[Game, Result]:
    """A game where both reach 2 Cup Tokens together and the lower team total wins."""
    game = Game()
    for seat in (0, 1):
        game.act(seat, {"type": "team", "cards": sorted(COMMON)})
    while RULES.result(game.state) is None:
        if game.view(0).phase is Phase.SWAP:
            game.act(0, {"type": "keep"})
            game.act(1, {"type": "keep"})
        for seat in (0, 1):
            game.act(seat, {"type": "lineup", "order": COMMON})
        game.duels()
    result = RULES.result(game.state)
    assert result is not None
    return game, result
