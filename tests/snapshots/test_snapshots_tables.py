"""Snapshot tests of shared tables at 80x24: the host's lobby, and joining by code.

The join code and the tokens are fixed so the pictures are the same every run.
"""

from __future__ import annotations

from collections.abc import Callable

import pytest
from textual.pilot import Pilot
from textual.widgets import Input

from saves.tables import SeatPlan, TableStore
from tests.helpers.waiting import until
from tui.app import CovenApp
from tui.screens.host_table import HostTableScreen
from tui.screens.lobby import LobbyScreen

SnapCompare = Callable[..., bool]


@pytest.fixture(autouse=True)
def fixed_codes(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every table is KXMP and every token K7P2-M3QD-9RTW-H4NB."""
    monkeypatch.setattr("saves.table_rows.random_code", lambda: "KXMP")
    monkeypatch.setattr("saves.table_tokens.new_token", lambda: "K7P2-M3QD-9RTW-H4NB")


def test_lobby_once_everyone_is_here(snap_compare: SnapCompare, other: TableStore) -> None:
    async def host_and_wait(pilot: Pilot[None]) -> None:
        await pilot.press("h")
        # The form must be up before ctrl+s: a loaded run pressed it while the menu was still in front.
        await until(pilot, lambda: isinstance(pilot.app.screen, HostTableScreen) and bool(pilot.app.screen.query(
            "#clock")), "the host form")
        await pilot.press("ctrl+s")
        await until(pilot, lambda: isinstance(pilot.app.screen, LobbyScreen), "the lobby")
        other.take_seat("KXMP", 1, "Bea")
        await until(pilot, lambda: "Bea" in pilot.app.export_screenshot(), "Bea in the lobby")
        await pilot.pause()

    assert snap_compare(CovenApp(auto_delay=60.0, player_name="ana"), terminal_size=(80, 24),
                        run_before=host_and_wait)


def test_joining_by_code_shows_the_open_seats(snap_compare: SnapCompare, other: TableStore) -> None:
    other.host("wizards-cup", {}, 3, [SeatPlan("local", "Hal"), SeatPlan("remote", "Seat 2")], host_name="Hal",
               allow_spectators=True)

    async def settle(pilot: Pilot[None]) -> None:
        shown = lambda: pilot.app.export_screenshot().replace("&#160;", " ")  # noqa: E731
        await until(pilot, lambda: "Take seat 2" in shown(), "the open seats")
        await pilot.pause()

    assert snap_compare(CovenApp(auto_delay=60.0, player_name="bea", join_code="kxmp"), terminal_size=(80, 24),
                        run_before=settle)


def test_lobby_chat_pane_with_a_spectator(snap_compare: SnapCompare, other: TableStore) -> None:
    """The host's lobby with the chat open: Bea seated, Cy watching, lines with markup shown as typed."""
    from saves import SessionStore
    from saves.presence import Presence

    with SessionStore() as store, Presence() as presence:  # Cy's connection stays until the picture is taken
        cy = TableStore(store, presence)
        picture(snap_compare, other, cy)


def picture(snap_compare: SnapCompare, other: TableStore, cy: TableStore) -> None:

    async def talk(pilot: Pilot[None]) -> None:
        app = pilot.app
        assert isinstance(app, CovenApp)
        await until(pilot, lambda: app.tables.store() is not None, 'tables is not None')
        tables = app.tables.store()
        assert tables is not None
        plan = [SeatPlan("local", "Ana"), SeatPlan("remote", "Seat 2")]
        hosted = tables.host("wizards-cup", {}, 3, plan, host_name="Ana", allow_spectators=True)
        app.tables.enter_table(hosted.info.code, hosted.token)
        await until(pilot, lambda: isinstance(app.screen, LobbyScreen), "the lobby")
        other.take_seat("KXMP", 1, "Bea")
        cy.watch("KXMP", "Cy")
        table_id = other.find("KXMP").table_id
        other.say(table_id, "hi all, [bold red]ready[/] when you are")
        cy.say(table_id, "good luck both")
        await pilot.press("c", "1")
        shown = lambda: app.export_screenshot().replace("&#160;", " ")  # noqa: E731
        await until(pilot, lambda: "Cy (watching): good luck" in shown() and "Ana: Good game" in shown()
                    and "Spectators (may talk): Cy" in shown() and "watching: Cy" in shown(), "the lines")
        assert isinstance(app.focused, Input)  # its cursor steady: tests/snapshots/conftest.py
        await pilot.pause()

    assert snap_compare(CovenApp(auto_delay=60.0, player_name="ana"), terminal_size=(80, 24), run_before=talk)


def test_game_chat_pane_at_80x24(snap_compare: SnapCompare, other: TableStore) -> None:
    """Ana's game with the chat open in the log's place (opened with ctrl+t over the team builder)."""
    from tui.screens.table_game import TableGameScreen

    async def talk(pilot: Pilot[None]) -> None:
        app = pilot.app
        assert isinstance(app, CovenApp)
        await until(pilot, lambda: app.tables.store() is not None, 'tables is not None')
        tables = app.tables.store()
        assert tables is not None
        plan = [SeatPlan("local", "Ana"), SeatPlan("remote", "Seat 2")]
        hosted = tables.host("wizards-cup", {}, 3, plan, host_name="Ana")
        app.tables.enter_table(hosted.info.code, hosted.token)
        await until(pilot, lambda: isinstance(app.screen, LobbyScreen), "the lobby")
        other.take_seat("KXMP", 1, "Bea")
        await until(pilot, lambda: "Bea · seated" in app.export_screenshot().replace("&#160;", " "), "Bea")
        await pilot.press("s")
        await until(pilot, lambda: isinstance(app.screen, TableGameScreen), "the game")
        other.say(other.find("KXMP").table_id, "take your time")
        await until(pilot, lambda: "Chat (1)" in app.export_screenshot().replace("&#160;", " "), "the count")
        await pilot.press("ctrl+t", "2")
        await until(pilot, lambda: "Ana: Thinking" in app.export_screenshot().replace("&#160;", " "), "the phrase")
        app.clear_notifications()  # the token's toast: the picture is of the chat
        assert isinstance(app.focused, Input)  # its cursor steady: tests/snapshots/conftest.py
        await until(pilot, lambda: not app.screen.query("Toast"), "the toast to go")

    assert snap_compare(CovenApp(auto_delay=60.0, player_name="ana"), terminal_size=(80, 24), run_before=talk)
