"""Snapshot tests of the app shell at 80x24 (and the too-small notice at 60x20).

Games use the fake table from ``test_tui_shell`` so these pictures do not change
when a game's own widgets do. Times are fixed and shown in UTC.
"""

from __future__ import annotations

import time
from collections.abc import Iterator

import pytest
from textual.pilot import Pilot

import tui.games
from saves import LiveSession
from tests.helpers.snapshots_shell import FIXED_TIME, SnapCompare, make_app, two_sessions
from tests.helpers.tui_fakes import FakeUI, seats


@pytest.fixture(autouse=True)
def deterministic(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """Fixed store clock, UTC display and the fake table for every game."""
    monkeypatch.setattr("saves.store.utc_now", lambda: FIXED_TIME)
    monkeypatch.setattr("tui.screens.sessions.current_year", lambda: 2026)
    monkeypatch.setenv("TZ", "UTC")
    time.tzset()
    ui = FakeUI()
    monkeypatch.setattr(tui.games, "_GAME_UIS", {"wizards-cup": ui, "count-to-ten": ui})
    yield
    monkeypatch.undo()
    time.tzset()


def test_main_menu_80x24(snap_compare: SnapCompare) -> None:
    assert snap_compare(make_app(), terminal_size=(80, 24))


def test_main_menu_with_continue(snap_compare: SnapCompare) -> None:
    assert snap_compare(make_app(two_sessions), terminal_size=(80, 24))


def test_too_small_60x20(snap_compare: SnapCompare) -> None:
    assert snap_compare(make_app(), terminal_size=(60, 20))


def test_new_game(snap_compare: SnapCompare) -> None:
    assert snap_compare(make_app(), press=["n"], terminal_size=(80, 24))


def test_sessions(snap_compare: SnapCompare) -> None:
    assert snap_compare(make_app(two_sessions), press=["s"], terminal_size=(80, 24))


def test_sessions_empty(snap_compare: SnapCompare) -> None:
    assert snap_compare(make_app(), press=["s"], terminal_size=(80, 24))


def test_delete_confirmation(snap_compare: SnapCompare) -> None:
    assert snap_compare(make_app(two_sessions), press=["s", "d"], terminal_size=(80, 24))


def test_curtain(snap_compare: SnapCompare) -> None:
    app = make_app()

    async def start(pilot: Pilot[None]) -> None:
        assert app.store is not None
        app.start_game(LiveSession.create(app.store, "wizards-cup", None, 5, seats("Ann", "Bob")))
        await pilot.pause()

    assert snap_compare(app, run_before=start, terminal_size=(80, 24))


def test_game_screen_waiting_for_duel(snap_compare: SnapCompare) -> None:
    app = make_app(two_sessions)

    async def start(pilot: Pilot[None]) -> None:
        app.open_session(2)
        await pilot.pause()

    assert snap_compare(app, run_before=start, terminal_size=(80, 24))


def test_replay(snap_compare: SnapCompare) -> None:
    app = make_app(two_sessions)

    async def start(pilot: Pilot[None]) -> None:
        app.open_replay(2)
        await pilot.pause()
        await pilot.press("end", "left")

    assert snap_compare(app, run_before=start, terminal_size=(80, 24))
