"""Shared by test_narration.py and other test modules, which import them from here.

GAMES, Host, bot_move, game_screen, moved here from tests/tui/test_narration.py.
"""

from __future__ import annotations

from typing import Any

from textual.app import App

from engine.core import seeded_rng
from saves import LiveSession
from tui.screens.game.screen import GameScreen

GAMES: dict[str, dict[str, Any]] = {
    "wizards-cup": {},
    "witchdraft": {},
    "wizbits": {"deck_1": "ember-dawn", "deck_2": "tidal-dusk"},
}


class Host(App[None]):
    """Opens the game screen on a session."""

    def __init__(self, live: LiveSession, linear: bool = False) -> None:
        super().__init__()
        self.live = live
        self.linear = linear

    def on_mount(self) -> None:
        screen = GameScreen(self.live, auto_delay=0.01)
        screen.linear = self.linear
        self.push_screen(screen)


def bot_move(live: LiveSession) -> None:
    """One move of the first seat asked (by its easy bot), or the table's step."""
    if not live.to_act:
        live.play_table()
        return
    seat = live.to_act[0]
    bot = live.spec.bots["easy"]
    action = bot(live.rules.view(live.state, seat), live.rules.legal_actions(live.state, seat),
                 seeded_rng(live.seed, "bot", seat, len(live.log)))
    live.apply(seat, action)


def game_screen(app: App[None]) -> GameScreen:
    return next(screen for screen in app.screen_stack if isinstance(screen, GameScreen))
