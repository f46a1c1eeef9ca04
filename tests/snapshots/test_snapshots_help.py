"""Snapshots at 80x24 of what issue 14 changed: the help, a footer with keys left out, Sessions of three games,
the status line playing automatically and the replay's shortened status line.

Games use the fake table (as in test_snapshots_shell), except the replay with keys left out, which needs a real
game's keys. Times are fixed and shown in UTC.
"""

from __future__ import annotations

import time
from collections.abc import Iterator

import pytest
from textual.pilot import Pilot

import tui.games
from saves import LiveSession, SessionStore
from tests.helpers.snapshots_shell import FIXED_TIME, SnapCompare, make_app, two_sessions
from tests.helpers.tui_fakes import FakeUI, play_until, seats
from tui.app import CovenApp


@pytest.fixture
def deterministic(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """Fixed store clock and UTC display."""
    monkeypatch.setattr("saves.store.utc_now", lambda: FIXED_TIME)
    monkeypatch.setattr("tui.screens.sessions.current_year", lambda: 2026)
    monkeypatch.setenv("TZ", "UTC")
    time.tzset()
    yield
    monkeypatch.undo()
    time.tzset()


@pytest.fixture
def fake_table(monkeypatch: pytest.MonkeyPatch) -> None:
    ui = FakeUI()
    monkeypatch.setattr(tui.games, "_GAME_UIS", {"wizards-cup": ui, "count-to-ten": ui})


def three_games(store: SessionStore) -> None:
    LiveSession.create(store, "wizards-cup", None, 1, seats("Morgana the Patient", "Merlin:normal"))
    draft = LiveSession.create(store, "witchdraft", None, 2, seats("Ana", "Bo:easy", "Cy:easy"))
    play_until(draft, 3)
    battle = LiveSession.create(store, "wizbits", {"deck_1": "ember-dawn", "deck_2": "tidal-dusk"}, 3,
                                seats("Ana", "Bo:easy"))
    play_until(battle, 12)


def test_help_over_the_game_screen(snap_compare: SnapCompare, deterministic: None, fake_table: None) -> None:
    app = make_app(two_sessions)

    async def start(pilot: Pilot[None]) -> None:
        app.open_session(2)
        await pilot.pause()
        await pilot.press("question_mark")
        await pilot.pause()

    assert snap_compare(app, run_before=start, terminal_size=(80, 24))


def test_status_line_playing_automatically(snap_compare: SnapCompare, deterministic: None,
                                           fake_table: None) -> None:
    app = make_app(two_sessions)

    async def start(pilot: Pilot[None]) -> None:
        app.open_session(2)
        await pilot.pause()
        await pilot.press("a")
        await pilot.pause()

    assert snap_compare(app, run_before=start, terminal_size=(80, 24))


def test_sessions_of_three_games(snap_compare: SnapCompare, deterministic: None) -> None:
    assert snap_compare(make_app(three_games), press=["s"], terminal_size=(80, 24))


def test_replay_footer_with_keys_left_out(snap_compare: SnapCompare, deterministic: None) -> None:
    store = SessionStore()
    live = LiveSession.create(store, "witchdraft", None, 2, seats("Ana", "Bo:easy"))
    play_until(live, 2)
    app = CovenApp(store=store, auto_delay=60.0)

    async def start(pilot: Pilot[None]) -> None:
        app.open_replay(live.session_id)
        await pilot.pause()
        await pilot.press("end")
        await pilot.pause()

    assert snap_compare(app, run_before=start, terminal_size=(80, 24))
