"""The game screen's status line before the screen is composed."""

from __future__ import annotations

from saves import LiveSession, SeatInfo, SessionStore
from tui.screens.game.screen import GameScreen


def test_status_text_can_be_read_and_set_before_the_screen_is_composed() -> None:
    # A test or a timer may look at a pushed screen before its compose has run (under load in CI it
    # did); the first read runs the reactive's watcher, which must not reach for unmounted widgets.
    with SessionStore() as store:
        live = LiveSession.create(store, "wizards-cup", {}, 5, [SeatInfo("Ana"), SeatInfo("Bo", "bot", "easy")])
        screen = GameScreen(live, auto_delay=0.01)
        assert screen.status_text == ""
        screen.status_text = "Ana to choose"
        assert screen.status_text == "Ana to choose"
        assert screen.help_now().endswith("Ana to choose")
