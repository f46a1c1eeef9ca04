"""Snapshot of the undo key's footer state at 80x24: a Wizbits play Ana can still take back."""

from __future__ import annotations

from typing import Any

from saves import SessionStore
from tests.helpers.undo_tui import Host, to_a_play, undo_key
from tests.helpers.waiting import until
from tests.helpers.wizbits_e2e import HeldPauses
from tui.screens.game.screen import GameScreen


def test_undo_in_the_footer_after_a_play_that_can_be_taken_back(snap_compare: Any) -> None:
    store = SessionStore()
    live, play = to_a_play(store)
    app = Host(live)

    async def play_it(pilot: Any) -> None:
        screen = app.screen
        assert isinstance(screen, GameScreen)
        HeldPauses(screen)  # Bo's bot waits: the picture is the moment after Ana's play
        await pilot.pause()
        screen._apply(0, play)
        await until(pilot, lambda: undo_key(screen) == "Undo", "the undo key")
        await pilot.pause()

    assert snap_compare(app, terminal_size=(80, 24), run_before=play_it)
