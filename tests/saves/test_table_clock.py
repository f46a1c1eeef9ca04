"""A live table's clock in the shared store: every process follows it, a time-out hands the seat to a bot and
its player takes it back. Time is each TableStore's injectable ``clock``: nothing sleeps or reads wall time."""

from __future__ import annotations

import sqlite3
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from engine import get_game
from engine.core.clock import Fischer
from saves import LiveSession, SeatPlan, TableError, TableStore
from saves.transfer import export_session, import_session_file, read_session_file
from tests.helpers.fake_game import Add
from tests.helpers.table_helpers import Opener

START = datetime(2026, 1, 1, 12, tzinfo=UTC)


def at(*stores: TableStore, seconds: float) -> None:
    """Every process reads the same fake time."""
    for store in stores:
        store.clock = lambda seconds=seconds: START + timedelta(seconds=seconds)  # type: ignore[misc]


def clocked_table(open_tables: Opener) -> tuple[TableStore, TableStore, str, int]:
    """Ana hosts seat 0 here, Bea plays seat 1 from another process; the game has started at fake time 0."""
    host, bea = open_tables(), open_tables()
    at(host, bea, seconds=0)
    code = host.host("count-to-ten", {"target": 1000}, 7, [SeatPlan("local", "Ana"), SeatPlan("remote", "Seat 2")],
                     host_name="Ana", clock=Fischer(3, 2)).info.code
    bea.take_seat(code, 1, "Bea")
    return host, bea, code, host.start(code)


def follow(tables: TableStore, code: str, live: LiveSession, curtain: bool | None = None) -> None:
    live.sync()
    tables.clock_follow(code, len(live.log), live.to_act, curtain)


def left(tables: TableStore, code: str, seat: int) -> float:
    stored = tables.find(code).clock
    assert stored is not None
    return stored.clock.left_at(seat, tables.clock().timestamp())


def test_a_table_without_a_clock_keeps_none(open_tables: Opener) -> None:
    host = open_tables()
    code = host.host("count-to-ten", {}, 7, [SeatPlan("local", "Ana"), SeatPlan("remote", "Seat 2")],
                     host_name="Ana").info.code
    assert host.find(code).clock is None
    assert host.clock_follow(code, 0, (0,)).clock is None


def test_moves_charge_the_mover_and_add_the_increment_across_processes(open_tables: Opener) -> None:
    host, bea, code, session_id = clocked_table(open_tables)
    ana_live = LiveSession.load(host.store, session_id, claim=host.claim)
    bea_live = LiveSession.load(bea.store, session_id, claim=bea.claim)
    follow(host, code, ana_live)
    at(host, bea, seconds=30)
    ana_live.apply(0, Add(1))
    follow(host, code, ana_live)
    follow(bea, code, bea_live)  # a second process finds nothing left to change
    at(host, bea, seconds=50)
    assert left(bea, code, 0) == 180 - 30 + 2
    assert left(bea, code, 1) == 180 - 20
    bea_live.sync()
    bea_live.apply(1, Add(1))
    follow(bea, code, bea_live)
    stored = host.find(code).clock
    assert stored is not None
    assert [(mark.seq, mark.seat, mark.left) for mark in stored.clock.marks] == [(1, 0, 152.0), (2, 1, 162.0)]


def test_a_dropped_seat_and_a_curtain_stop_the_clock(open_tables: Opener) -> None:
    host, bea, code, session_id = clocked_table(open_tables)
    live = LiveSession.load(host.store, session_id, claim=host.claim)
    follow(host, code, live)
    at(host, bea, seconds=10)
    follow(host, code, live, curtain=True)
    at(host, bea, seconds=500)
    assert left(host, code, 0) == 170
    follow(host, code, live, curtain=False)
    bea.presence.close()
    host.refresh(code)  # Bea dropped: the whole table waits, and so does its clock
    follow(host, code, live)
    at(host, bea, seconds=900)
    assert left(host, code, 0) == 170


def test_a_player_asks_for_double_time_or_no_clock_for_their_own_seat(open_tables: Opener) -> None:
    host, bea, code, session_id = clocked_table(open_tables)
    with pytest.raises(TableError, match="only for your own seats"):
        host.clock_ask(code, [1], "none")
    bea.clock_ask(code, [1], "double")
    assert left(host, code, 1) == 360
    bea.clock_ask(code, [1], "none")
    stored = host.find(code).clock
    assert stored is not None and not stored.clock.clocked(1) and stored.clock.ask(1) == "none"


def test_time_out_hands_the_seat_to_the_bot_and_its_player_takes_it_back(open_tables: Opener) -> None:
    host, bea, code, session_id = clocked_table(open_tables)
    live = LiveSession.load(host.store, session_id, claim=host.claim)
    live.apply(0, Add(1))
    follow(host, code, live)  # Bea's seat is asked now
    at(host, bea, seconds=100)
    with pytest.raises(TableError, match="still has time"):
        bea.clock_time_out(code, 1)
    at(host, bea, seconds=181)
    with pytest.raises(TableError, match="not played from this connection"):
        host.clock_time_out(code, 1)
    assert bea.clock_time_out(code, 1) == "easy"  # the fake game has no "normal" bots: its first level
    info = host.find(code)
    assert info.seats[1].role == "bot" and info.seats[1].bot_level == "easy"
    live.sync()
    assert live.seats[1].is_bot
    with pytest.raises(TableError, match="Only the player whose time ran out"):
        open_tables().clock_take_back(code, 1)
    bea.clock_take_back(code, 1)
    info = host.find(code)
    assert info.seats[1].role == "remote" and info.seats[1].claim == bea.claim
    live.sync()
    assert not live.seats[1].is_bot
    assert left(host, code, 1) == 60
    with pytest.raises(TableError, match="was not handed to a bot by the clock"):
        bea.clock_take_back(code, 1)


def test_the_clock_is_exported_with_its_move_times_and_the_file_imports(open_tables: Opener, tmp_path: Path) -> None:
    host, bea, code, session_id = clocked_table(open_tables)
    bea.clock_ask(code, [1], "double")
    live = LiveSession.load(host.store, session_id, claim=host.claim)
    follow(host, code, live)
    at(host, bea, seconds=5)
    live.apply(0, Add(1))
    follow(host, code, live)
    path = export_session(host.store, session_id, tmp_path / "clocked.json")
    data = read_session_file(path)["clock"]
    assert data == {"base": 3, "increment": 2, "asks": {"1": "double"}, "marks": [[1, 0, 177.0]]}
    imported = import_session_file(host.store, path)  # the clock travels with the file; the game imports as ever
    assert imported.warning is None
    stored = host.find(code).clock
    assert stored is not None and stored.clock.after(1, 2) == {0: 177.0, 1: 360.0}  # the replay's times
    assert stored.clock.after(0, 2) == {0: 180.0, 1: 360.0}


def test_a_damaged_stored_clock_is_refused_in_words(open_tables: Opener) -> None:
    host, bea, code, session_id = clocked_table(open_tables)
    with sqlite3.connect(host.store.path) as conn:
        conn.execute("UPDATE tables SET clock = ? WHERE code = ?", ('{"base": "x"}', code))
    with pytest.raises(TableError, match="unreadable clock"):
        host.find(code)


def test_a_player_who_left_after_their_time_ran_out_takes_the_seat_back_with_its_token(open_tables: Opener) -> None:
    host, bea = open_tables(), open_tables()
    at(host, bea, seconds=0)
    code = host.host("count-to-ten", {"target": 1000}, 7, [SeatPlan("remote", "Seat 1"), SeatPlan("local", "Ana")],
                     host_name="Ana", clock=Fischer(3, 2)).info.code
    token = bea.take_seat(code, 0, "Bea")
    session_id = host.start(code)
    live = LiveSession.load(host.store, session_id, claim=host.claim)
    follow(host, code, live)  # Bea's seat is asked first
    at(host, bea, seconds=200)
    bea.clock_time_out(code, 0)
    bea.release_mine(left=True)  # she leaves; her seat is the bot's
    later = open_tables()
    at(later, seconds=900)
    assert later.reclaim(code, token) == [0]  # her next visit
    info = host.find(code)
    assert info.seats[0].role == "remote" and info.seats[0].claim == later.claim
    assert left(later, code, 0) == 60
    live.sync()
    assert not live.seats[0].is_bot


def test_a_host_whose_local_seat_ran_out_takes_it_back_with_the_host_token_on_a_later_visit(
        open_tables: Opener) -> None:
    host, bea = open_tables(), open_tables()
    at(host, bea, seconds=0)
    hosted = host.host("count-to-ten", {"target": 1000}, 7, [SeatPlan("local", "Ana"), SeatPlan("remote", "Seat 2")],
                       host_name="Ana", clock=Fischer(3, 2))
    code = hosted.info.code
    bea.take_seat(code, 1, "Bea")
    session_id = host.start(code)
    live = LiveSession.load(host.store, session_id, claim=host.claim)
    follow(host, code, live)  # Ana's seat, at the host's terminal, is asked first
    at(host, bea, seconds=200)
    host.clock_time_out(code, 0)
    host.release_mine(left=True)  # the host's terminal is gone; a bot plays Ana's seat
    assert bea.find(code).seats[0].role == "bot"
    later = open_tables()
    at(later, seconds=900)
    assert later.reclaim(code, hosted.token) == [0]  # the host's next visit, as a seat's token does for its seat
    info = later.find(code)
    assert info.host_claim == later.claim
    assert (info.seats[0].role, info.seats[0].claim, info.seats[0].bot_level) == ("local", later.claim, None)
    assert left(later, code, 0) == 60
    stored = info.clock
    assert stored is not None and 0 not in stored.out
    live.sync()
    assert not live.seats[0].is_bot


def test_a_rematch_starts_a_fresh_clock_and_the_finished_game_keeps_its_own(open_tables: Opener) -> None:
    from saves.table_clock import session_clock
    from saves.table_rematch import ask_rematch

    host, bea = open_tables(), open_tables()
    at(host, bea, seconds=0)
    code = host.host("count-to-ten", {}, 7, [SeatPlan("local", "Ana"), SeatPlan("remote", "Seat 2")],
                     host_name="Ana", clock=Fischer(3, 2)).info.code
    bea.take_seat(code, 1, "Bea")
    first = host.start(code)
    bea.clock_ask(code, [1], "double")
    lives = {0: LiveSession.load(host.store, first, claim=host.claim),
             1: LiveSession.load(bea.store, first, claim=bea.claim)}
    step = 0
    while not lives[0].finished:
        for live in lives.values():
            live.sync()
        step += 1
        at(host, bea, seconds=step)
        if lives[0].finished:
            break
        if not lives[0].to_act:
            lives[0].play_table()
        else:
            seat = lives[0].to_act[0]
            lives[seat].apply(seat, Add(2))
        follow(host, code, lives[0])
    played = session_clock(host.store, first)
    assert played is not None and played.marks
    ask_rematch(bea, first)
    again = ask_rematch(host, first).session
    assert again is not None
    stored = host.find(code).clock
    assert stored is not None and stored.clock.seq == 0 and stored.clock.marks == []
    assert stored.clock.ask(1) == "double"  # Bea's request holds for the next game too
    kept = session_clock(host.store, first)
    assert kept is not None and kept.marks == played.marks  # the finished game's replay keeps its times
    live = LiveSession.load(host.store, again, claim=host.claim)
    follow(host, code, live)  # the new game's clock follows from its first move
    assert host.find(code).clock.clock.asked == frozenset(live.to_act)  # type: ignore[union-attr]


def test_a_time_out_goes_to_the_bot_level_the_host_chose(open_tables: Opener) -> None:
    host, bea = open_tables(), open_tables()
    at(host, bea, seconds=0)
    chosen = get_game("count-to-ten").bot_levels[-1]  # not the level a table without a choice gets
    assert chosen != "easy"
    code = host.host("count-to-ten", {"target": 1000}, 7, [SeatPlan("local", "Ana"), SeatPlan("remote", "Seat 2")],
                     host_name="Ana", clock=Fischer(3, 2), timeout_bot=chosen).info.code
    assert host.find(code).timeout_bot == chosen
    bea.take_seat(code, 1, "Bea")
    live = LiveSession.load(host.store, host.start(code), claim=host.claim)
    live.apply(0, Add(1))
    follow(host, code, live)
    at(host, bea, seconds=181)
    assert bea.clock_time_out(code, 1) == chosen
    assert host.find(code).seats[1].bot_level == chosen
    with pytest.raises(TableError, match="no 'grandmaster' bot"):
        host.host("count-to-ten", {"target": 1000}, 7, [SeatPlan("local", "Ana"), SeatPlan("remote", "Seat 2")],
                  host_name="Ana", clock=Fischer(3, 2), timeout_bot="grandmaster")


def test_a_clock_and_a_turn_based_pace_are_refused_together(open_tables: Opener) -> None:
    host = open_tables()
    host.account = "ana"
    with pytest.raises(TableError, match="A clock is for a live table"):
        host.host("count-to-ten", {}, 7, [SeatPlan("local", "Ana"), SeatPlan("remote", "Seat 2")],
                  host_name="Ana", clock=Fischer(3, 2), pace_days=3)
    assert host.my_tables() == []
