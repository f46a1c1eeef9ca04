"""Playing at a shared table: the store's seat-claim check, bots, data_version and LiveSession.sync."""

from __future__ import annotations

import sqlite3
from datetime import timedelta

import pytest

from engine.core import InvalidOptionsError
from saves import (
    RECLAIM_WINDOW_SECONDS,
    BadTokenError,
    LiveSession,
    SeatClaimError,
    SeatInfo,
    SeatPlan,
    SessionLoadError,
    TableError,
    TableNotFoundError,
    db_path,
)
from tests.helpers.fake_game import Add
from tests.helpers.table_helpers import Opener, host_table, started


def test_a_finished_game_ends_its_table(open_tables: Opener) -> None:
    host, bea = open_tables(), open_tables()
    code, _ = host_table(host, [SeatPlan("remote", "Seat 1"), SeatPlan("bot", "Robo", "easy")])
    bea.take_seat(code, 0, "Bea")
    session_id = host.start(code)
    assert host.store.latest_unfinished() is None  # Continue must not open a table's game
    mine = LiveSession.load(bea.store, session_id, claim=bea.claim)
    hosts = LiveSession.load(host.store, session_id, claim=host.claim)
    while not mine.finished:
        hosts.sync()
        if hosts.table_action is not None:
            hosts.play_table()
        elif hosts.to_act == (1,):
            hosts.apply(1, Add(2))
        else:
            mine.sync()
            mine.apply(0, Add(2))
        mine.sync()
    assert not host.is_live(code)
    with pytest.raises(TableNotFoundError):
        bea.find(code)
    table = host.table_of_session(session_id)
    assert table is not None and table.status == "closed"


# -- bots ------------------------------------------------------------------------------


def test_a_dropped_seat_goes_to_a_bot_only_after_the_reclaim_window(open_tables: Opener) -> None:
    host, bea = open_tables(), open_tables()
    code, _ = host_table(host)
    token = bea.take_seat(code, 1, "Bea")
    session_id = host.start(code)
    with pytest.raises(TableError, match="Seat 2 \\(Bea\\) is still connected"):
        host.hand_to_bot(code, 1, "easy")
    bea.presence.close()  # Bea's process is gone
    dropped = host.clock()
    with pytest.raises(TableError, match="kept for its player for 10 more minutes"):
        host.hand_to_bot(code, 1, "easy")  # even before a refresh noticed the drop
    host.refresh(code)
    host.clock = lambda: dropped + timedelta(seconds=RECLAIM_WINDOW_SECONDS - 61)
    with pytest.raises(TableError, match="for 2 more minutes"):
        host.hand_to_bot(code, 1, "easy")
    assert host.find(code).seats[1].reserved(host.clock())
    host.clock = lambda: dropped + timedelta(seconds=RECLAIM_WINDOW_SECONDS + 1)
    assert not host.find(code).seats[1].reserved(host.clock())
    with pytest.raises(InvalidOptionsError, match="unknown bot level 'godlike'"):
        host.hand_to_bot(code, 1, "godlike")
    with pytest.raises(TableError, match="Only the host"):
        open_tables().hand_to_bot(code, 1, "easy")
    with pytest.raises(TableError, match="Seat 1 \\(Ana\\) is not a remote seat"):
        host.hand_to_bot(code, 0, "easy")
    host.hand_to_bot(code, 1, "easy")
    seat = host.find(code).seats[1]
    assert (seat.role, seat.bot_level, seat.name) == ("bot", "easy", "Bea")
    assert [(s.kind, s.bot_level) for s in host.store.seats_of(session_id)] == [("human", None), ("bot", "easy")]
    # The bot is the host's to play now, and its old token no longer reclaims the seat.
    beas_screen = LiveSession.load(bea.store, session_id)  # opened before the hand-over...
    live = LiveSession.load(host.store, session_id, claim=host.claim)
    assert live.seats[1].is_bot
    live.apply(0, Add(1))
    live.apply(1, Add(1))
    with pytest.raises(BadTokenError, match=f"Seat 2 \\(Bea\\) at table {code} was handed to a bot"):
        open_tables().reclaim(code, token)
    assert len(beas_screen.sync()) == 2 and beas_screen.seats[1].is_bot  # ...sees it after a sync


def test_an_open_seat_can_go_to_a_bot_at_once(open_tables: Opener) -> None:
    host = open_tables()
    code, _ = host_table(host)
    host.hand_to_bot(code, 1, "hard")
    info = host.find(code)
    assert info.ready and info.seats[1].claim is None
    session_id = host.start(code)
    assert host.store.seats_of(session_id)[1].is_bot


# -- the store's claim check, data_version and sync ----------------------------------------


def test_the_store_refuses_actions_for_seats_this_connection_does_not_hold(open_tables: Opener) -> None:
    host, bea, session_id = started(open_tables)
    store = host.store
    with pytest.raises(SeatClaimError, match="^Seat 1 is not played from this connection.$"):
        store.append_action(session_id, 1, 0, {"add": 1}, claim=bea.claim)
    with pytest.raises(SeatClaimError, match="Seat 1 is not played"):
        store.append_action(session_id, 1, 0, {"add": 1})  # no claim at all
    store.append_action(session_id, 1, 0, {"add": 1}, claim=host.claim)
    with pytest.raises(SeatClaimError, match="Seat 2 is not played"):
        store.append_action(session_id, 2, 1, {"add": 1}, claim=host.claim)
    store.append_action(session_id, 2, 1, {"add": 1}, claim=bea.claim)
    with pytest.raises(SeatClaimError, match="automatic steps"):
        store.append_action(session_id, 3, None, {"bump": 0}, claim=bea.claim)
    with pytest.raises(SeatClaimError, match="Seat 5 is not a seat"):
        store.append_action(session_id, 3, 4, {"add": 1}, claim=host.claim)
    assert store.log_length(session_id) == 2
    # Through LiveSession too: nothing is stored and the state does not move.
    beas = LiveSession.load(bea.store, session_id, claim=bea.claim)
    assert beas.to_act == (0,)
    digest = beas.digest
    with pytest.raises(SeatClaimError):
        beas.apply(0, Add(1))
    assert beas.digest == digest and len(beas.log) == 2 == store.log_length(session_id)


def test_sessions_without_a_table_ignore_claims(open_tables: Opener) -> None:
    store = open_tables().store
    session_id = store.create_session("count-to-ten", {"target": 10}, 1, host_seats())
    store.append_action(session_id, 1, 0, {"add": 1}, claim="0123456789abcdef")
    store.append_action(session_id, 2, 1, {"add": 1})
    assert store.log_length(session_id) == 2
    assert store.latest_unfinished() == session_id


def host_seats() -> list[SeatInfo]:
    return [SeatInfo("Ana"), SeatInfo("Bea")]


def test_data_version_changes_only_on_other_connections_commits(open_tables: Opener) -> None:
    host, bea, session_id = started(open_tables)
    mine, other = host.store.data_version(), bea.store.data_version()
    host.store.append_action(session_id, 1, 0, {"add": 1}, claim=host.claim)
    assert host.store.data_version() == mine
    assert bea.store.data_version() != other
    other = bea.store.data_version()
    assert bea.store.data_version() == other  # stable while nobody writes


def test_sync_catches_up_with_another_connection(open_tables: Opener) -> None:
    host, bea, session_id = started(open_tables)
    hosts = LiveSession.load(host.store, session_id, claim=host.claim)
    beas = LiveSession.load(bea.store, session_id, claim=bea.claim)
    assert beas.sync() == []
    hosts.apply(0, Add(2))
    (events,) = beas.sync()
    assert [e.text for e in events] == ["Ana adds 2; the total is 2."]
    beas.apply(1, Add(1))
    assert hosts.sync() == [list(beas.history()[2].events)]
    hosts.apply(0, Add(1))
    assert hosts.table_action is not None  # the third move makes the table due
    hosts.play_table()
    assert len(beas.sync()) == 2
    assert beas.digest == hosts.digest and len(beas.log) == len(hosts.log) == 4
    assert beas.log == hosts.log


def test_sync_refuses_a_tampered_entry(open_tables: Opener) -> None:
    host, bea, session_id = started(open_tables)
    beas = LiveSession.load(bea.store, session_id, claim=bea.claim)
    conn = sqlite3.connect(db_path())
    conn.execute(  # written behind the store's back: seat 1 out of turn
        "INSERT INTO actions (session_id, seq, seat, action, created) VALUES (?, 1, 1, '{\"add\":1}', 'now')",
        (session_id,),
    )
    conn.commit()
    conn.close()
    with pytest.raises(SessionLoadError, match="action 1 is illegal"):
        beas.sync()
    assert beas.log == ()
