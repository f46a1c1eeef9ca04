"""The Coven's side of a seat kept by the browser door's page: the token handed back takes the seat as a typed one
would (a wrong one counted against the connection, a bad form ignored), waits for the page's previous Coven to let
go, and tells the door to forget a seat it could not take back. A Coven not under the browser door ignores it all."""

from __future__ import annotations

import asyncio
import os
from collections.abc import Callable, Iterator

import pytest

import tui.kept_seat as kept_seat
from saves import SessionStore, TableStore
from saves.presence import Presence
from saves.table_tokens import MAX_RECLAIM_TRIES, new_token
from tests.helpers.table_helpers import PLAN
from tui.kept_seat import HOLDER_GONE_SECONDS, SeatTakeBack
from tui.serve_status import ServeStatus, dropped_line
from tui.server.admission import ChildStatus


class Said:
    """The status pipe, as the Coven's end sees it: what it told the door."""

    def __init__(self) -> None:
        self.lines: list[str] = []

    def tell(self, word: str) -> None:
        self.lines.append(word)


class Seating:
    """The app's table seating: its own table store, and the tables it entered."""

    def __init__(self, tables: TableStore) -> None:
        self.tables = tables
        self.entered: list[tuple[str, str | None]] = []

    def store(self) -> TableStore:
        return self.tables

    def enter_table(self, code: str, token: str | None) -> None:
        self.entered.append((code, token))


@pytest.fixture
def said(monkeypatch: pytest.MonkeyPatch) -> Said:
    """The Coven runs under the browser door, which asked to hear its seats."""
    pipe = Said()
    monkeypatch.setattr(kept_seat, "keeping", lambda: True)
    monkeypatch.setattr(kept_seat, "serve_status", lambda: pipe)
    return pipe


@pytest.fixture
def table() -> Iterator[tuple[str, str, Presence, TableStore]]:
    """Ana's table where Bea sat in seat 2 from another Coven (still running), and a fresh Coven's store after
    Bea's page was refreshed: the code, Bea's token, her old Coven's presence and the new one's tables."""
    with SessionStore() as store, Presence() as host, Presence() as bea, Presence() as fresh:
        code = TableStore(store, host).host("wizards-cup", {}, 7, PLAN, host_name="Ana").info.code
        token = TableStore(store, bea).take_seat(code, 1, "Bea")
        yield code, token, bea, TableStore(store, fresh)


def _take_back(tables: TableStore, clock: Callable[[], float] = lambda: 0.0,
               ) -> tuple[SeatTakeBack, Seating, list[str], list[tuple[float, Callable[[], None]]]]:
    seating, warned, waits = Seating(tables), [], []
    take_back = SeatTakeBack(seating, warned.append, lambda seconds, then: waits.append((seconds, then)),
                             clock)  # type: ignore[arg-type]
    return take_back, seating, warned, waits


def test_the_handed_back_token_takes_the_seat_once_the_old_coven_lets_go(
        said: Said, table: tuple[str, str, Presence, TableStore]) -> None:
    code, token, bea, tables = table
    take_back, seating, warned, waits = _take_back(tables)
    take_back.heard(f"reclaim {code} {token.lower()}")
    assert seating.entered == [] and len(waits) == 1  # Bea's old Coven still holds the seat: wait a moment
    bea.close()  # ... and it is hung up
    waits.pop()[1]()
    assert seating.entered == [(code, token)]
    assert warned == [] and "forget" not in said.lines
    take_back.heard(f"reclaim {code} {token}")  # once a connection
    assert seating.entered == [(code, token)]


def test_a_seat_still_held_after_the_wait_is_not_taken_and_the_page_forgets_it(
        said: Said, table: tuple[str, str, Presence, TableStore]) -> None:
    code, token, _, tables = table
    now = [0.0]
    take_back, seating, warned, waits = _take_back(tables, lambda: now[0])
    take_back.heard(f"reclaim {code} {token}")
    now[0] = HOLDER_GONE_SECONDS + 1
    waits.pop()[1]()
    assert seating.entered == [] and waits == []
    assert said.lines == ["forget"]
    assert warned and "still connected" in warned[0]


def test_a_wrong_token_counts_as_a_typed_one_and_a_malformed_line_is_ignored(
        said: Said, table: tuple[str, str, Presence, TableStore]) -> None:
    code, _, bea, tables = table
    bea.close()
    for line in (f"reclaim {code} not-a-token", f"reclaim {code}", f"reclaim ?? {new_token()}", "dropped 5",
                 f"seat {code} {new_token()}"):
        _take_back(tables)[0].heard(line)
    assert tables.reclaim_tries_left == MAX_RECLAIM_TRIES  # nothing shaped like a token was tried
    take_back, seating, warned, _ = _take_back(tables)
    take_back.heard(f"reclaim {code} {new_token()}")
    assert tables.reclaim_tries_left == MAX_RECLAIM_TRIES - 1
    assert seating.entered == [] and said.lines == ["forget"]
    assert warned and "does not match" in warned[0]


def test_a_coven_not_under_the_browser_door_says_no_seat_and_takes_none_back(
        monkeypatch: pytest.MonkeyPatch, table: tuple[str, str, Presence, TableStore]) -> None:
    code, token, bea, tables = table
    pipe = Said()
    monkeypatch.setattr(kept_seat, "serve_status", lambda: pipe)
    monkeypatch.setattr(kept_seat, "keeping", lambda: False)  # an SSH session's Coven, or one at this machine
    bea.close()
    kept_seat.remember(code, token)
    kept_seat.forget()
    take_back, seating, _, _ = _take_back(tables)
    take_back.heard(f"reclaim {code} {token}")
    assert pipe.lines == [] and seating.entered == []


def test_keeping_needs_the_browser_door_s_variable(monkeypatch: pytest.MonkeyPatch) -> None:
    kept_seat.keeping.cache_clear()
    monkeypatch.delenv(kept_seat.KEEP_SEAT_VARIABLE, raising=False)
    try:
        assert not kept_seat.keeping()
    finally:
        kept_seat.keeping.cache_clear()


async def test_seat_lines_cross_the_status_pipe_both_ways_beside_the_dropped_notice() -> None:
    server_heard: list[str] = []
    status = ChildStatus(None, server_heard.append)
    child = ServeStatus.from_environment({"COVEN_SERVE_STATUS_FD": str(os.dup(status.child_fd))})
    status.listen()
    dropped: list[int] = []
    child_heard: list[str] = []
    child.listen(dropped.append, child_heard.append)
    token = new_token()
    child.tell(kept_seat.seat_line(kept_seat.SEAT, "KXMP", token))
    child.tell("ready")  # a status word: not another line
    status.say(kept_seat.seat_line(kept_seat.RECLAIM, "KXMP", token))
    status.say(dropped_line(7))
    for _ in range(200):
        if server_heard and child_heard and dropped:
            break
        await asyncio.sleep(0.01)
    assert server_heard == [f"seat KXMP {token}"] and status.ready
    assert child_heard == [f"reclaim KXMP {token}"] and dropped == [7]
    status.close()
    child.close()


class Host:
    """The app, as table seating sees it: its store, and what it was told and asked to open."""

    def __init__(self, store: SessionStore) -> None:
        self.store: SessionStore | None = store
        self.store_problem: str | None = None
        self.notes: list[str] = []
        self.posted: list[object] = []

    def notify(self, message: str, **_: object) -> None:
        self.notes.append(message)

    def post_message(self, message: object) -> bool:
        self.posted.append(message)
        return True


def test_a_seat_taken_is_told_to_the_door_and_leaving_the_table_forgets_it(said: Said) -> None:
    from tui.table_seating import TableSeating

    with SessionStore() as store, Presence() as host:
        code = TableStore(store, host).host("wizards-cup", {}, 7, PLAN, host_name="Ana").info.code
        seating = TableSeating(Host(store), "bea", serve_port=8000)  # type: ignore[arg-type]
        tables = seating.store()
        assert tables is not None
        token = tables.take_seat(code, 1, "Bea")
        seating.enter_table(code, token)
        assert said.lines and set(said.lines) == {f"seat {code} {token}"}
        told = len(said.lines)
        seating.watch(code, "Bea")  # watching holds no seat: nothing more to keep
        assert len(said.lines) == told
        link = seating._link(code, token, spectator=False)
        assert link is not None
        seating.leave(link)
        assert said.lines[-1] == "forget"
        seating.close()
