"""Who is away from a shared table, and how the others are told: dropped or left, and for how long.

The app under test is one process; the other players are TableStores with
their own connection and presence claim, as other Coven processes would be.
"""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime, timedelta

from textual.widgets import Static

from saves import SessionStore
from saves.presence import Presence
from saves.tables import TableStore
from tests.helpers.host_here import host_here
from tests.helpers.tables_tui import hal_hosts, screen_text
from tests.helpers.waiting import until
from tui.app import CovenApp
from tui.games.wizards_cup.team_builder import TeamBuilder
from tui.screens.lobby import LobbyScreen
from tui.screens.table_game import TableGameScreen


async def pick_team(pilot: object, game: TableGameScreen) -> None:
    """Ana picks her five wizards and confirms (Wizards Cup's first, simultaneous choice)."""
    builder = game.query_one(TeamBuilder)
    while len(builder.picks) < 5:
        await pilot.press("space", "down")  # type: ignore[attr-defined]
    await pilot.press("c")  # type: ignore[attr-defined]


def test_the_waiting_line_counts_the_minutes_a_dropped_player_is_away() -> None:
    async def scenario() -> None:
        app = CovenApp(auto_delay=0.0)
        async with app.run_test(size=(100, 30)) as pilot:
            code = await host_here(pilot, app)
            with SessionStore() as store, Presence() as presence:
                TableStore(store, presence).take_seat(code, 1, "Bea")
                await until(pilot, lambda: "Bea · seated" in screen_text(app), "Bea in the lobby")
                await pilot.press("s")
                await until(pilot, lambda: isinstance(app.screen, TableGameScreen), "the game")
            game = app.screen  # Bea's Coven is gone
            assert isinstance(game, TableGameScreen)
            await until(pilot, lambda: game.status_text == "Ana to choose", "Ana's turn")
            await pick_team(pilot, game)
            await until(pilot, lambda: game.status_text == "Waiting for Bea (dropped just now)…", "the drop")
            # Three minutes pass with nothing happening at the table: the line follows the clock by itself.
            start = datetime.now(UTC)
            game.link.tables.clock = lambda: start + timedelta(minutes=3, seconds=5)
            await until(pilot, lambda: game.status_text == "Waiting for Bea (dropped 3 min ago)…",
                        "the minutes counted on the status line")
            await until(pilot, lambda: "Bea (dropped 3 min ago)" in screen_text(app), "the line on screen")

    asyncio.run(scenario())


def test_a_joiner_is_told_whose_seat_is_kept_for_a_player_who_dropped(other: TableStore) -> None:
    code = hal_hosts(other, 4)
    with SessionStore() as store, Presence() as presence:
        TableStore(store, presence).take_seat(code, 1, "Bea")
        other.start(code)
    # Bea's Coven is gone; someone new comes with the code.

    async def scenario() -> None:
        app = CovenApp(auto_delay=0.0, join_code=code)
        async with app.run_test(size=(80, 24)) as pilot:
            await until(pilot, lambda: "hosted by Hal" in screen_text(app), "the table found")
            shown = str(app.screen.query_one("#join-table", Static).render())
            assert "Seated: Hal. Away: Bea (seat 2, dropped just now; kept for their token)." in shown

    asyncio.run(scenario())


def test_a_player_who_leaves_is_announced_as_leaving_not_as_dropped() -> None:
    async def scenario() -> None:
        app = CovenApp(auto_delay=0.0)
        async with app.run_test(size=(100, 30)) as pilot:
            code = await host_here(pilot, app)
            with SessionStore() as store, Presence() as presence:
                bea = TableStore(store, presence)
                bea.take_seat(code, 1, "Bea")
                await until(pilot, lambda: "Bea · seated" in screen_text(app), "Bea in the lobby")
                await pilot.press("s")
                await until(pilot, lambda: isinstance(app.screen, TableGameScreen), "the game")
                game = app.screen
                assert isinstance(game, TableGameScreen)
                await until(pilot, lambda: game.status_text == "Ana to choose", "Ana's turn")
                bea.release_mine(left=True)  # Bea pressed Leave; her Coven lives on at its menu
                notes = lambda: " ".join(str(note.message) for note in app._notifications)  # noqa: E731
                await until(pilot, lambda: "Bea left the table." in notes(), "Bea's leaving announced")
                assert "Bea dropped" not in notes()
                await pick_team(pilot, game)
                await until(pilot, lambda: game.status_text == "Waiting for Bea (left just now)…", "the wait")
                people = game.chat.query_one("#chat-people", Static)
                await until(pilot, lambda: "Bea (left just now)" in str(people.render()), "the player list")

    asyncio.run(scenario())


def test_leaving_a_table_with_escape_tells_the_others_it_was_a_choice(other: TableStore) -> None:
    code = hal_hosts(other, 8)

    async def scenario() -> None:
        app = CovenApp(auto_delay=0.0, join_code=code)
        async with app.run_test(size=(80, 24)) as pilot:
            await until(pilot, lambda: "Take seat 2" in screen_text(app), "the open seat")
            await pilot.press("enter")
            await until(pilot, lambda: isinstance(app.screen, LobbyScreen), "the lobby")
            other.start(code)
            await until(pilot, lambda: isinstance(app.screen, TableGameScreen), "the game")
            await pilot.press("escape")
            await until(pilot, lambda: other.find(code).seats[1].claim is None, "the seat given up")
            assert other.find(code).seats[1].left

    asyncio.run(scenario())
