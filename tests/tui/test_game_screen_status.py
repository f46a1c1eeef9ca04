"""The game screen's status line: before the screen is composed, and fitted to the columns it has."""

from __future__ import annotations

import pytest
from rich.cells import cell_len
from textual.widgets import Static

from saves import LiveSession, SeatInfo, SessionStore
from tests.helpers.layout_audit import rows
from tests.helpers.undo_tui import Host
from tests.helpers.waiting import until
from tui.screens.game.screen import GameScreen, fit_status


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


LONG_WIDE_NAME = ("Morgana 魔法使いの塔 of the Eternal Twilight " * 3)[:64]
"""A name as long as New game allows, with wide characters (two columns each) in it."""


def test_a_status_line_with_wide_characters_fits_its_columns() -> None:
    for width in (40, 60, 78, 98):
        line = fit_status(("Table ABCD · ", "Wizards Cup", "Choosing teams", f"{LONG_WIDE_NAME} to choose"), width)
        assert cell_len(line) <= width, (width, line)
        assert line.endswith(("to choose", "…")), line


@pytest.mark.parametrize("size", [(80, 24), (100, 30)])
async def test_a_long_seat_name_on_the_status_line_ends_whole_or_with_an_ellipsis(size: tuple[int, int]) -> None:
    with SessionStore() as store:
        live = LiveSession.create(store, "wizards-cup", {}, 5,
                                  [SeatInfo(LONG_WIDE_NAME), SeatInfo("Bo", "bot", "easy")])
        app = Host(live)
        async with app.run_test(size=size) as pilot:
            await until(pilot, lambda: app.screen.status_text.endswith("to choose"), "the seat is asked")
            status = app.screen.query_one("#game-status", Static)
            await until(pilot, lambda: str(status.render()).endswith(("to choose", "…")), "the status line drawn")
            drawn = rows(app)[status.region.y].rstrip()
            assert drawn.endswith(("to choose", "…")), drawn
