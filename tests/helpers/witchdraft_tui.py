"""Shared by test_witchdraft_tui.py and other test modules, which import them from here.

Game, four_player_face_up_app, score_app, tie_game, two_player_app, moved here from
tests/tui/witchdraft/test_witchdraft_tui.py.
"""

from __future__ import annotations

import random
from typing import Any

from textual.app import App, ComposeResult
from textual.containers import Horizontal, Vertical
from textual.widgets import Footer, Static

from engine import Result, get_game
from engine.witchdraft.bots import normal_bot
from engine.witchdraft.game import RULES
from engine.witchdraft.scoring import CategoryScore
from engine.witchdraft.state import WitchDraftState, WitchDraftView
from tests.helpers.tui_fakes import ScreenApp
from tui.games.witchdraft.draft_hand import DraftHand
from tui.games.witchdraft.draft_score import SeatsTable
from tui.games.witchdraft.results import WitchDraftScoreScreen

SPEC = get_game("witchdraft")
NAMES = ["Ana", "Bo", "Cy", "Dee", "Eli"]
TIE_SEED = 34
"""With 3 players, the Faster Game and the normal bot, Bo and Cy tie on 70 brew points."""


class Game:
    """A WitchDraft game driven by the normal bot with a fixed seed."""

    def __init__(self, seats: int, seed: int = 5, **options: Any) -> None:
        self.state: WitchDraftState = SPEC.new_state(options, seed, seats, NAMES[:seats])
        self.rng = random.Random(seed)

    def pick(self, seat: int) -> None:
        """``seat``'s next action: its secret pick, or placing its revealed pick."""
        view = self.view(seat)
        action = normal_bot(view, RULES.legal_actions(self.state, seat), self.rng)
        self.state, _ = RULES.apply(self.state, seat, action)

    def rounds(self, count: int | None = None) -> Game:
        """Play ``count`` whole rounds (every seat picks, then every seat places), or to the end."""
        while not self.state.over and (count is None or count > 0):
            for _stage in ("pick", "place"):
                for seat in RULES.to_act(self.state):
                    self.pick(seat)
            count = None if count is None else count - 1
        return self

    def view(self, seat: int | None) -> WitchDraftView:
        return RULES.view(self.state, seat)

    def scores(self) -> list[list[CategoryScore]]:
        return [RULES.scores(self.state, seat) for seat in range(len(self.state.players))]

    def result(self) -> Result:
        result = RULES.result(self.state)
        assert result is not None
        return result


class HandApp(App[None]):
    """A stand-in for the draft view: a placeholder grid over the seats, the side panel and a footer."""

    CSS = """
    #grid { width: 1fr; height: 1fr; border: round $foreground 20%; content-align: center middle; }
    #left { width: 1fr; }
    #dh-table { height: auto; }
    """

    def __init__(self, view: WitchDraftView) -> None:
        super().__init__()
        self.start = view
        self.chosen: list[str] = []
        self.watched: list[int] = []

    def compose(self) -> ComposeResult:
        with Horizontal():
            with Vertical(id="left"):
                yield Static("potion grid goes here", id="grid")
                yield SeatsTable(id="dh-table")
            yield DraftHand()
        yield Footer()

    def on_mount(self) -> None:
        hand = self.query_one(DraftHand)
        hand.show(self.start)
        hand.focus_hand()
        self.query_one(SeatsTable).show(self.start, hand.watching)

    def on_draft_hand_card_chosen(self, message: DraftHand.CardChosen) -> None:
        self.chosen.append(message.card_id)

    def on_draft_hand_watch_seat(self, message: DraftHand.WatchSeat) -> None:
        self.watched.append(message.seat)
        self.query_one(SeatsTable).show(self.start, message.seat)


def two_player_app() -> HandApp:
    game = Game(2).rounds(2)
    game.pick(1)  # Bo's pick is in, Ana still to choose
    return HandApp(game.view(0))


def four_player_face_up_app() -> HandApp:
    game = Game(4, seed=11, face_up=True).rounds(2)
    game.pick(2)
    return HandApp(game.view(0))


def tie_game() -> Game:
    return Game(3, seed=TIE_SEED, faster=True).rounds()


def score_app(game: Game) -> ScreenApp:
    return ScreenApp(WitchDraftScoreScreen(game.view(0), game.scores(), game.result()))
