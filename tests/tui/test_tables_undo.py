"""Undo at a shared table: u takes back the seat's own move under the same rule, the others' screens say so,
and a race with another player's move is said in words.

The app under test is one process; the other player is a TableStore with its own connection and claim.
"""

from __future__ import annotations

import random
from typing import Any

from textual.widgets import RichLog

from engine.wizards_cup.state import Phase
from saves import LiveSession
from saves.tables import TableStore
from tests.helpers.host_here import host_here
from tests.helpers.tables_tui import hal_hosts, play_for, screen_text
from tests.helpers.waiting import until
from tui.app import CovenApp
from tui.games.wizards_cup.team_builder import TeamBuilder
from tui.screens.join_table import JoinTableScreen
from tui.screens.lobby import LobbyScreen
from tui.screens.table_game import TableGameScreen
from tui.widgets.fitting_footer import FittingFooter

UNDO = {"type": "undo"}


def log_lines(game: TableGameScreen) -> list[str]:
    return [line.text.strip() for line in game.query_one("#game-log", RichLog).lines]


def notes(app: CovenApp) -> str:
    return "\n".join(str(note.message) for note in app._notifications)


async def ana_at_a_started_table(pilot: Any, app: CovenApp, other: TableStore) -> tuple[TableGameScreen, LiveSession]:
    """Ana hosts a Wizards Cup table from the app, Bea sits from the other process; the game and Bea's session."""
    code = await host_here(pilot, app)
    other.take_seat(code, 1, "Bea")
    await until(pilot, lambda: "Bea · seated" in screen_text(app), "Bea in the lobby")
    await pilot.press("s")
    await until(pilot, lambda: isinstance(app.screen, TableGameScreen), "the game")
    game = app.screen
    assert isinstance(game, TableGameScreen)
    return game, LiveSession.load(other.store, game.live.session_id, claim=other.claim)


async def confirm_team(pilot: Any, game: TableGameScreen) -> None:
    builder = game.query_one(TeamBuilder)
    await until(pilot, lambda: builder.has_focus_within, "the team builder")
    before = len(game.live.log)
    while len(builder.picks) < 5:
        await pilot.press("space", "down")
    await pilot.press("c")
    await until(pilot, lambda: len(game.live.log) == before + 1, "Ana's team saved")


async def test_u_at_a_table_takes_back_the_seats_move_and_the_other_seat_hears_of_it(other: TableStore) -> None:
    app = CovenApp(auto_delay=0.0)
    async with app.run_test(size=(80, 24)) as pilot:
        game, bea = await ana_at_a_started_table(pilot, app, other)
        await confirm_team(pilot, game)
        await pilot.press("u")
        await until(pilot, lambda: game.live.log[-1].action == UNDO, "the undo saved")
        assert game.live.state.phase is Phase.TEAM and 0 in game.live.to_act
        assert "Ana took back a move." in log_lines(game)
        assert [[event.text for event in events] for events in bea.sync()][-1] == ["Ana took back a move."]

        # Bea has moved since: the same rule keeps Ana's team, and the key is gone from the Footer.
        await confirm_team(pilot, game)
        bea.sync()
        play_for(bea, 1, random.Random(2))
        await until(pilot, lambda: game.live.state.phase is Phase.LINEUP, "both teams")
        assert game.live.undo_refusal(0) == "Bea has moved since"
        await until(pilot, lambda: (not any(shown.startswith("Undo") for shown in game.query_one(FittingFooter).shown)),
                    'not any(shown.startswith("Undo") for shown in game.query_...')
        assert not any(shown.startswith("Undo") for shown in game.query_one(FittingFooter).shown), game.query_one(FittingFooter).shown
        saved = len(game.live.log)
        await pilot.press("u")
        await until(pilot, lambda: len(game.live.log) == saved, 'len(game.live.log) == saved')


async def test_another_seats_undo_shows_on_this_screen(other: TableStore) -> None:
    code = hal_hosts(other, 4)
    app = CovenApp(auto_delay=0.0)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("j")
        await until(pilot, lambda: isinstance(app.screen, JoinTableScreen), "the join form")
        await pilot.press(*code.lower(), "enter")
        await until(pilot, lambda: "Take seat 2" in screen_text(app), "the open seat")
        await pilot.press("enter")
        await until(pilot, lambda: isinstance(app.screen, LobbyScreen), "the lobby")
        session_id = other.start(code)
        await until(pilot, lambda: isinstance(app.screen, TableGameScreen), "the game")
        game = app.screen
        assert isinstance(game, TableGameScreen)
        await until(pilot, lambda: f"Table {code} · Wizards Cup" in screen_text(app), "the game on screen")
        hal = LiveSession.load(other.store, session_id, claim=other.claim)
        play_for(hal, 0, random.Random(1))
        hal.undo(0)
        await until(pilot, lambda: "Hal took back a move." in log_lines(game), "Hal's undo in Bea's log")
        assert len(game.live.log) == 2 and game.live.undone == hal.undone


async def test_an_undo_that_loses_the_race_to_another_move_is_said_in_words(other: TableStore) -> None:
    app = CovenApp(auto_delay=0.0)
    async with app.run_test(size=(80, 24)) as pilot:
        game, bea = await ana_at_a_started_table(pilot, app, other)
        await confirm_team(pilot, game)
        # Bea's team is saved between the screen's last look at the store and Ana's undo.
        live = game.live
        real_sync, real_undo = live.sync, live.undo
        holding = True

        def late_sync() -> list[Any]:
            return [] if holding else real_sync()

        def undo(seat: int) -> Any:
            nonlocal holding
            holding = False
            return real_undo(seat)

        live.sync = late_sync  # type: ignore[method-assign]
        live.undo = undo  # type: ignore[method-assign]
        bea.sync()
        play_for(bea, 1, random.Random(2))
        await pilot.press("u")
        await until(pilot, lambda: "another player moved meanwhile" in notes(app), "the refusal")
        assert "Nothing was taken back: another player moved meanwhile, so Bea has moved since." in notes(app)
        assert UNDO not in [entry.action for entry in live.log]
        assert game.live.state.phase is Phase.LINEUP  # the screen caught up with Bea's team
        assert "Session" not in notes(app)  # no store jargon
