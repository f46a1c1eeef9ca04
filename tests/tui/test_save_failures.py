"""Saving that keeps failing is told once, holds the game and recovers without losing a move.

The store's connection is wrapped so that action inserts fail as a full
disk makes them fail; the real store wraps the error, the real LiveSession
classifies it and the real game screen (with bots) reacts. Retries run on a
fake clock: the screen asks it for each delay, and the test decides when a
retry happens, so nothing here depends on how fast the machine is.
"""

from __future__ import annotations

import random
import sqlite3
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from textual.pilot import Pilot

from engine import GameSpec
from saves import LiveSession, SessionStore, TableStore
from saves.save_failures import DISK_FULL, LOCKED, READ_ONLY, SaveFailedError, passing_reason
from tests.helpers.fake_game import Add
from tests.helpers.host_here import host_here
from tests.helpers.tui_fakes import FakeTable, FakeUI, seats
from tests.helpers.waiting import until
from tui.app import CovenApp
from tui.screens.game.save_retry import RECOVERED, backoff
from tui.screens.game.screen import GameScreen
from tui.screens.menu import MainMenu
from tui.widgets.confirm import ConfirmScreen
from tui.widgets.save_banner import SaveBanner


class FailingInserts:
    """Stands in for the store's connection: the next ``failures`` action inserts fail with ``message``."""

    def __init__(self, conn: sqlite3.Connection, message: str = "database or disk is full") -> None:
        self.conn = conn
        self.message = message
        self.failures = 0
        self.attempts = 0

    @classmethod
    def into(cls, store: SessionStore) -> FailingInserts:
        """Put a failing connection in ``store``'s place; set ``failures`` on the result to fail."""
        writes = cls(store._conn)  # type: ignore[arg-type]
        store._conn = writes  # type: ignore[assignment]
        return writes

    def execute(self, sql: str, *args: Any) -> Any:
        if sql.lstrip().startswith("INSERT INTO actions"):
            self.attempts += 1
            if self.failures > 0:
                self.failures -= 1
                raise sqlite3.OperationalError(self.message)
        return self.conn.execute(sql, *args)

    def __getattr__(self, name: str) -> Any:
        return getattr(self.conn, name)


@dataclass
class Call:
    delay: float
    callback: Callable[[], None]
    stopped: bool = False
    fired: bool = False

    def stop(self) -> None:
        self.stopped = True


class FakeClock:
    """Records every retry the screen schedules; :meth:`fire` runs the one waiting."""

    def __init__(self) -> None:
        self.calls: list[Call] = []

    def schedule(self, delay: float, callback: Callable[[], None]) -> Call:
        call = Call(delay, callback)
        self.calls.append(call)
        return call

    @property
    def waiting(self) -> list[Call]:
        return [call for call in self.calls if not call.stopped and not call.fired]

    def fire(self) -> None:
        (call,) = self.waiting
        call.fired = True
        call.callback()


def record_notifications(app: CovenApp) -> list[tuple[str, str]]:
    """Every (title, message) the app shows from now on."""
    shown: list[tuple[str, str]] = []
    original = app.notify

    def notify(message: str, *, title: str = "", **kwargs: Any) -> None:
        shown.append((title, message))
        original(message, title=title, **kwargs)

    app.notify = notify  # type: ignore[method-assign]
    return shown


async def open_game(app: CovenApp, pilot: Pilot[None], live: LiveSession, clock: FakeClock) -> GameScreen:
    app.start_game(live)
    await until(pilot, lambda: isinstance(app.screen, GameScreen) and app.screen.is_mounted, "the game screen")
    await until(pilot, lambda: isinstance(app.screen, GameScreen), 'isinstance(screen, GameScreen)')
    screen = app.screen
    assert isinstance(screen, GameScreen)
    screen.saving.schedule = clock.schedule
    return screen


def test_backoff_doubles_from_half_a_second_to_ten() -> None:
    assert [backoff(n) for n in range(1, 9)] == [0.5, 1, 2, 4, 8, 10, 10, 10]


async def test_a_full_disk_is_told_once_holds_the_bots_and_the_move_is_saved_when_it_clears(
    fake_spec: GameSpec, fake_ui: FakeUI
) -> None:
    store = SessionStore()
    writes = FailingInserts.into(store)
    live = LiveSession.create(store, "count-to-ten", {"target": 1000}, 5, seats("Hal:easy", "Bea:easy"))
    app = CovenApp(store=store, auto_delay=0.01)
    clock = FakeClock()
    async with app.run_test(size=(100, 30)) as pilot:
        screen = await open_game(app, pilot, live, clock)
        screen.auto_play = True  # the table's steps play by themselves too
        table = screen.table
        assert isinstance(table, FakeTable)
        await until(pilot, lambda: len(live.log) >= 4, "the bots to play a few moves")
        shown = record_notifications(app)
        writes.failures = 6  # the first save and five retries fail; the sixth retry works
        before = writes.attempts
        await until(pilot, lambda: screen.saving.failing, "a save to fail")
        saved = len(live.log)
        events_shown = len(table.events)
        banner = screen.query_one(SaveBanner)
        assert banner.display and "Saving is failing: the disk is full; retrying" in str(banner.render())
        assert screen.check_action("retry_save", ()) is True, "r (retry now) is offered"

        for _ in range(5):
            attempts = writes.attempts
            for _ in range(10):  # whatever time passes, nothing is tried until the clock says so
                await pilot.pause(0.02)
            assert writes.attempts == attempts
            assert screen._bot_log_length is None and not screen.workers, "the bots wait"
            assert len(live.log) == saved and len(table.events) == events_shown, "nothing unsaved is shown"
            clock.fire()
        assert writes.attempts - before == 1 + 5
        assert [call.delay for call in clock.calls] == [0.5, 1, 2, 4, 8, 10]
        assert len(screen.query(SaveBanner)) == 1 and banner.display
        assert shown == [], "one banner, no toast per attempt"

        clock.fire()  # the disk has room again
        await until(pilot, lambda: len(live.log) > saved + 3, "the game to go on")
        assert not banner.display and not screen.saving.failing
        assert screen.check_action("retry_save", ()) is False
        assert shown.count(("Saving again", RECOVERED)) == 1
        assert [title for title, _ in shown] == ["Saving again"]
        assert writes.attempts - before >= 1 + 6
        stored = store.load(live.session_id).log
        assert [entry.action for entry in stored] == [entry.action for entry in live.log[: len(stored)]]
        assert len(stored) >= saved + 1, "the held move was saved"


async def test_a_locked_database_holds_the_players_move_until_r_saves_it(
    fake_spec: GameSpec, fake_ui: FakeUI, coven_data_dir: Path
) -> None:
    store = SessionStore(timeout=0.05)
    live = LiveSession.create(store, "count-to-ten", {"target": 1000}, 5, seats("Ana", "Bea:easy"))
    app = CovenApp(store=store, auto_delay=0.01)
    clock = FakeClock()
    other = sqlite3.connect(store.path, isolation_level=None)
    async with app.run_test(size=(100, 30)) as pilot:
        screen = await open_game(app, pilot, live, clock)
        table = screen.table
        assert isinstance(table, FakeTable)
        await until(pilot, lambda: live.to_act == (0,) and screen.status_text == "Ana to choose", "Ana's turn")
        shown = record_notifications(app)
        other.execute("BEGIN IMMEDIATE")  # another program holds the write lock
        table.choose(0, Add(2))
        await until(pilot, lambda: screen.saving.failing, "the save to fail")
        banner = screen.query_one(SaveBanner)
        assert banner.display and f"Saving is failing: {LOCKED}" in str(banner.render())
        assert live.log == () and table.shown[-1][1:] == (None, 0), "nothing is shown or offered meanwhile"
        table.choose(0, Add(1))  # a second choice waits for the first
        await until(pilot, lambda: live.log == (), 'live.log == ()')
        other.execute("COMMIT")
        await pilot.press("r")
        await until(pilot, lambda: len(live.log) >= 2, "Ana's move and Bea's answer")
        assert live.log[0].seat == 0 and live.log[0].action == {"add": 2}
        assert not banner.display
        assert [title for title, _ in shown].count("Saving again") == 1
        assert [call.delay for call in clock.calls] == [0.5]
        assert clock.calls[0].stopped, "r replaced the scheduled retry"
    other.close()


async def test_leaving_while_a_move_is_held_asks_first(fake_spec: GameSpec, fake_ui: FakeUI) -> None:
    store = SessionStore()
    writes = FailingInserts.into(store)
    live = LiveSession.create(store, "count-to-ten", {"target": 1000}, 5, seats("Ana", "Bea:easy"))
    app = CovenApp(store=store, auto_delay=0.01)
    clock = FakeClock()
    async with app.run_test(size=(100, 30)) as pilot:
        screen = await open_game(app, pilot, live, clock)
        await until(pilot, lambda: live.to_act == (0,) and screen.status_text == "Ana to choose", "Ana's turn")
        writes.failures = 1_000
        table = screen.table
        assert isinstance(table, FakeTable)
        table.choose(0, Add(2))
        await until(pilot, lambda: screen.saving.failing, "the save to fail")
        await pilot.press("escape")
        await until(pilot, lambda: isinstance(app.screen, ConfirmScreen), "the question")
        assert DISK_FULL in app.screen.question and "lose that move" in app.screen.question
        await pilot.press("n")  # stay
        await until(pilot, lambda: app.screen is screen, "the game again")
        assert screen.saving.failing and [call.delay for call in clock.waiting] == [0.5]
        await pilot.press("escape")
        await until(pilot, lambda: isinstance(app.screen, ConfirmScreen), "the question again")
        await pilot.press("y")
        await until(pilot, lambda: isinstance(app.screen, MainMenu), "the menu")
        assert clock.waiting == [], "no retry is left behind"
    with SessionStore() as again:
        assert again.load(live.session_id).log == ()


async def test_at_a_shared_table_the_held_move_is_saved_after_the_others_moves(other: TableStore) -> None:
    from tui.games.wizards_cup.team_builder import TeamBuilder
    from tui.screens.table_game import TableGameScreen

    app = CovenApp(auto_delay=0.0)
    clock = FakeClock()
    async with app.run_test(size=(80, 24)) as pilot:
        other.take_seat(await host_here(pilot, app), 1, "Bea")
        await until(pilot, lambda: "Everyone is here" in app.export_screenshot().replace("&#160;", " "), "Bea")
        await pilot.press("s")
        await until(pilot, lambda: isinstance(app.screen, TableGameScreen), "the game")
        game = app.screen
        assert isinstance(game, TableGameScreen)
        game.saving.schedule = clock.schedule
        assert app.store is not None
        writes = FailingInserts.into(app.store)
        shown = record_notifications(app)
        writes.failures = 1_000
        builder = game.query_one(TeamBuilder)
        while len(builder.picks) < 5:
            await pilot.press("space", "down")
        await pilot.press("c")  # Ana's team: not saved
        await until(pilot, lambda: game.saving.failing, "the save to fail")
        assert game.live.log == ()
        bea = LiveSession.load(other.store, game.live.session_id, claim=other.claim)
        view, legal = bea.rules.view(bea.state, 1), bea.rules.legal_actions(bea.state, 1)
        bea.apply(1, bea.spec.bots["easy"](view, legal, random.Random(3)))  # Bea's team, saved elsewhere
        await until(pilot, lambda: len(game.live.log) == 1, "Bea's team to arrive while Ana's waits")
        writes.failures = 0
        clock.fire()
        await until(pilot, lambda: len(game.live.log) == 2, "Ana's team, saved after Bea's")
        assert [entry.seat for entry in game.live.log] == [1, 0]
        assert not game.saving.failing and not game.query_one(SaveBanner).display
        assert [title for title, _ in shown] == ["Saving again"]
        bea.sync()
        assert bea.digest == game.live.digest


def test_live_session_reports_a_passing_failure_and_changes_nothing(fake_spec: GameSpec) -> None:
    with SessionStore() as store:
        live = LiveSession.create(store, "count-to-ten", {"target": 1000}, 5, seats("Ana", "Bo"))
        writes = FailingInserts.into(store)
        writes.failures = 1
        digest = live.digest
        with pytest.raises(SaveFailedError) as raised:
            live.apply(0, Add(1))
        assert raised.value.reason == DISK_FULL and live.log == () and live.digest == digest
        live.apply(0, Add(1))  # the same move, tried again
        assert len(store.load(live.session_id).log) == 1


def test_real_sqlite_failures_get_their_reasons(tmp_path: Path) -> None:
    path = tmp_path / "db.sqlite"
    with sqlite3.connect(path) as conn:
        conn.execute("CREATE TABLE t (x BLOB)")
    conn.close()
    reader = sqlite3.connect(f"{path.as_uri()}?mode=ro", uri=True)
    with pytest.raises(sqlite3.OperationalError) as read_only:
        reader.execute("INSERT INTO t VALUES (1)")
    reader.close()
    assert passing_reason(read_only.value) == READ_ONLY

    full = sqlite3.connect(path)
    full.execute("PRAGMA max_page_count = 4")
    with pytest.raises(sqlite3.OperationalError) as disk_full:
        for _ in range(100):
            full.execute("INSERT INTO t VALUES (randomblob(4000))")
    full.rollback()
    full.close()
    assert passing_reason(disk_full.value) == DISK_FULL

    holder = sqlite3.connect(path, isolation_level=None)
    holder.execute("BEGIN IMMEDIATE")
    waiter = sqlite3.connect(path, timeout=0.01, isolation_level=None)
    with pytest.raises(sqlite3.OperationalError) as busy:
        waiter.execute("BEGIN IMMEDIATE")
    holder.execute("COMMIT")
    holder.close()
    waiter.close()
    assert passing_reason(busy.value) == LOCKED

    with pytest.raises(sqlite3.IntegrityError) as conflict:
        both = sqlite3.connect(":memory:")
        both.execute("CREATE TABLE u (x UNIQUE)")
        both.executemany("INSERT INTO u VALUES (?)", [(1,), (1,)])
    assert passing_reason(conflict.value) is None, "a conflict is an answer, not a passing failure"
    assert passing_reason(ValueError("database or disk is full")) is None


async def test_a_journal_removed_under_the_game_holds_it_with_the_reason_said_once(
    fake_spec: GameSpec, fake_ui: FakeUI
) -> None:
    """Another program removed the -wal: the bots wait, nothing unsaved is shown, one banner says what to do."""
    store = SessionStore()
    live = LiveSession.create(store, "count-to-ten", {"target": 1000}, 5, seats("Hal:easy", "Bea:easy"))
    app = CovenApp(store=store, auto_delay=0.01)
    clock = FakeClock()
    async with app.run_test(size=(100, 30)) as pilot:
        screen = await open_game(app, pilot, live, clock)
        screen.auto_play = True
        await until(pilot, lambda: len(live.log) >= 4, "the bots to play a few moves")
        shown = record_notifications(app)
        store._journal.lost = "coven.sqlite3-wal"  # as JournalWatch.check finds it when the file is gone
        await until(pilot, lambda: screen.saving.failing, "a save to fail")
        saved = len(live.log)
        banner = screen.query_one(SaveBanner)
        assert banner.display and "another program removed Coven's save files" in str(banner.render())
        for _ in range(3):
            clock.fire()
            assert len(live.log) == saved and screen.saving.failing
        assert shown == [], "one banner, no toast per attempt"
        assert store.load(live.session_id).log[-1].seq == saved
        store._journal.lost = None  # so the test's store closes as usual (a lost one is never closed)
