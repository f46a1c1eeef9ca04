"""Snapshot tests of shared tables at 80x24: the host's lobby, and joining by code.

The join code and the tokens are fixed so the pictures are the same every run.
"""

from __future__ import annotations

from collections.abc import Callable

import pytest
from textual.pilot import Pilot

from saves.tables import SeatPlan, TableStore
from tui.app import CovenApp
from tui.screens.lobby import LobbyScreen
from waiting import until

SnapCompare = Callable[..., bool]


@pytest.fixture(autouse=True)
def fixed_codes(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every table is KXMP and every token K7P2-M3QD-9RTW-H4NB."""
    monkeypatch.setattr("saves.table_rows.random_code", lambda: "KXMP")
    monkeypatch.setattr("saves.table_tokens.new_token", lambda: "K7P2-M3QD-9RTW-H4NB")


def test_lobby_once_everyone_is_here(snap_compare: SnapCompare, other: TableStore) -> None:
    async def host_and_wait(pilot: Pilot[None]) -> None:
        await pilot.press("h")
        await pilot.pause()
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
