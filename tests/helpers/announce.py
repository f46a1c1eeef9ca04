"""Shared by test_announce.py and other test modules, which import them from here.

play_until, moved here from tests/tui/test_announce.py.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from saves import LiveSession, SeatInfo, SessionStore
from tests.helpers.narration import GAMES, bot_move


def play_until(store: SessionStore, game_id: str, wanted: Callable[[Any], bool], seed: int = 5) -> LiveSession:
    """A bots' game of ``game_id`` played until seat 0's view satisfies ``wanted``."""
    live = LiveSession.create(store, game_id, GAMES[game_id], seed,
                              [SeatInfo("Ana", "bot", "easy"), SeatInfo("Bo", "bot", "easy")])
    for _ in range(5000):
        if wanted(live.rules.view(live.state, 0)):
            return live
        assert live.result is None, "the game ended before the moment the test wants"
        bot_move(live)
    raise AssertionError("never reached")
