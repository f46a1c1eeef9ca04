"""Turn-based tables in the store: pace, each seat's clock, vacations, running out of time and coming back.

Every clock is the table store's ``clock`` set ahead of the real time the store stamps moves with, so no test
waits: "two days later" is ``later(tables, days=2)``.
"""

from __future__ import annotations

import random
import sqlite3
from datetime import UTC, datetime, timedelta

import pytest

from engine.wizards_cup.cards import CARDS
from saves import LiveSession, SessionStore, db_path
from saves.presence import Presence
from saves.schema import SCHEMA_VERSION
from saves.table_records import SeatClaimError, TableError
from saves.tables import SeatPlan, TableStore
from saves.turn_based import (
    VACATION_DAYS,
    end_vacation,
    my_turn_tables,
    resume,
    seat_deadline,
    start_vacation,
    take_back,
    take_helm,
    vacation,
)
from saves.turn_pace import SIGNED_IN_ONLY
from tests.helpers.old_schema import old_lobby
from tests.helpers.serve_game import secrets_of
from tests.helpers.table_helpers import PLAN, Opener, turn_session


def later(tables: TableStore, days: float = 0, hours: float = 0) -> TableStore:
    """``tables`` with its clock running ``days`` and ``hours`` ahead of the real time."""
    ahead = timedelta(days=days, hours=hours)
    tables.clock = lambda: datetime.now(UTC) + ahead
    return tables


def signed_in(open_tables: Opener, account: str) -> TableStore:
    tables = open_tables()
    tables.account = account
    return tables


def turn_table(open_tables: Opener, pace_days: int = 3) -> tuple[TableStore, TableStore, str, int]:
    """Ana hosts a turn-based count-to-ten (seat 0 hers), Bea sits in seat 1, the game starts: Ana's move."""
    ana, bea = signed_in(open_tables, "ana"), signed_in(open_tables, "bea")
    code = ana.host("count-to-ten", {}, 7, PLAN, host_name="Ana", pace_days=pace_days, timeout_bot="hard").info.code
    bea.take_seat(code, 1, "Bea")  # the table is full: the game starts
    return ana, bea, code, turn_session(ana, code)


def play(tables: TableStore, session_id: int, seat: int) -> None:
    live = LiveSession.load(tables.store, session_id, claim=tables.claim)
    live.apply(seat, live.rules.legal_actions(live.state, seat)[0])


def test_the_host_picks_the_pace_and_the_time_out_bot(open_tables: Opener) -> None:
    ana, _, code, _ = turn_table(open_tables, pace_days=7)
    info = ana.find(code)
    assert (info.turn_based, info.pace_days, info.timeout_bot) == (True, 7, "hard")
    live = signed_in(open_tables, "cy").host("count-to-ten", {}, 7, PLAN, host_name="Cy").info
    assert (live.turn_based, live.pace_days, live.timeout_bot) == (False, 0, None)
    with pytest.raises(TableError, match="not 2"):
        ana.host("count-to-ten", {}, 7, PLAN, host_name="Ana", pace_days=2)
    with pytest.raises(TableError, match="no 'wizard' bot"):
        ana.host("count-to-ten", {}, 7, PLAN, host_name="Ana", pace_days=1, timeout_bot="wizard")


def test_a_visit_without_an_account_is_refused_a_turn_based_table_in_words(open_tables: Opener) -> None:
    visit = open_tables()  # --auth none: no account
    with pytest.raises(TableError) as refused:
        visit.host("count-to-ten", {}, 7, PLAN, host_name="Vi", pace_days=3)
    assert str(refused.value) == SIGNED_IN_ONLY and "signed-in" in SIGNED_IN_ONLY
    code = signed_in(open_tables, "ana").host("count-to-ten", {}, 7, PLAN, host_name="Ana", pace_days=3).info.code
    with pytest.raises(TableError) as joining:
        visit.take_seat(code, 1, "Vi")  # nor may a visit sit at one
    assert str(joining.value) == SIGNED_IN_ONLY


def test_your_move_is_listed_with_its_time_and_the_reminder_at_half_time(open_tables: Opener) -> None:
    ana, bea, code, _ = turn_table(open_tables, pace_days=3)
    [mine] = my_turn_tables(later(ana, hours=1))
    assert mine.code == code and mine.my_move and mine.my_seats == (0,)
    assert mine.my_clock is not None and not mine.my_clock.reminded
    assert timedelta(days=2, hours=22) < mine.my_clock.left <= timedelta(days=2, hours=23)
    [theirs] = my_turn_tables(later(bea, hours=1))
    assert not theirs.my_move and theirs.waiting_for == ("Ana",)
    [half] = my_turn_tables(later(ana, days=1, hours=13))
    assert half.my_clock is not None and half.my_clock.reminded and not half.my_clock.overdue


def test_a_move_passes_the_clock_on_and_it_starts_at_that_move(open_tables: Opener) -> None:
    ana, bea, code, session_id = turn_table(open_tables, pace_days=1)
    play(ana, session_id, 0)
    [waiting] = my_turn_tables(later(ana, hours=20))
    assert not waiting.my_move and waiting.waiting_for == ("Bea",)
    [asked] = my_turn_tables(later(bea, hours=20))
    assert asked.my_move and asked.my_clock is not None and asked.my_clock.reminded
    assert timedelta(hours=3) < asked.my_clock.left <= timedelta(hours=4)


def test_time_running_out_hands_the_seat_to_the_hosts_bot_and_everyone_reads_it(open_tables: Opener) -> None:
    ana, bea, code, session_id = turn_table(open_tables, pace_days=1)
    assert my_turn_tables(later(ana, hours=23))[0].handed_now == ()
    [looked] = my_turn_tables(later(bea, days=1, hours=1))  # Bea's look applies the rule to Ana's seat
    assert looked.handed_now == (0,) and looked.timed_out == ((0, "Ana"),)
    seat = bea.find(code).seats[0]
    assert (seat.role, seat.bot_level, seat.claim) == ("bot", "hard", None)
    assert LiveSession.load(bea.store, session_id).seats[0].bot_level == "hard"
    [told] = my_turn_tables(later(ana, days=1, hours=2))
    assert told.handed_now == () and told.mine_timed_out() == ["Ana"]  # once only, and Ana reads it too
    assert not told.my_move and told.waiting_for == ("a bot for Ana",)


def test_the_player_takes_the_seat_back_and_its_clock_starts_again(open_tables: Opener) -> None:
    ana, bea, code, session_id = turn_table(open_tables, pace_days=1)
    my_turn_tables(later(bea, days=2))
    assert take_back(later(bea, days=2), code) == []  # not Bea's seat to take
    assert take_back(later(ana, days=2), code) == [0]
    seat = ana.find(code).seats[0]
    assert (seat.role, seat.claim, seat.timed_out_at) == ("remote", ana.claim, None)
    assert not LiveSession.load(ana.store, session_id).seats[0].is_bot
    [again] = my_turn_tables(later(ana, days=2, hours=1))
    assert again.my_move and again.timed_out == () and again.my_clock is not None
    assert timedelta(hours=22) < again.my_clock.left <= timedelta(hours=23)
    play(ana, session_id, 0)  # hers to play again
    with pytest.raises(TableError):
        bea.take_seat(code, 0, "Mallory")  # a taken-back seat is never open to anyone else


def test_vacation_pauses_the_clock_and_its_days_are_counted(open_tables: Opener) -> None:
    ana, _, code, _ = turn_table(open_tables, pace_days=1)
    bank = start_vacation(later(ana, hours=2), "ana")
    assert bank.on and bank.days_used == 1 and bank.days_left == VACATION_DAYS - 1
    with pytest.raises(TableError, match="already on"):
        start_vacation(ana, "ana")
    [paused] = my_turn_tables(later(ana, days=3))  # three days on: only the first two hours counted
    assert paused.handed_now == () and paused.my_clock is not None and not paused.my_clock.reminded
    assert vacation(ana, "ana").days_used == 3
    end_vacation(later(ana, days=3), "ana")
    assert not vacation(ana, "ana").on and vacation(ana, "ana").days_used == 3
    [running] = my_turn_tables(later(ana, days=3, hours=12))
    assert running.my_clock is not None and running.my_clock.reminded
    assert [table.handed_now for table in my_turn_tables(later(ana, days=3, hours=23))] == [(0,)]
    with pytest.raises(TableError, match="not on"):
        end_vacation(ana, "ana")
    assert code


def test_the_vacation_bank_runs_dry_after_fourteen_days_a_year(open_tables: Opener) -> None:
    ana = signed_in(open_tables, "ana")
    start = datetime(2027, 3, 1, 9, tzinfo=UTC)
    ana.clock = lambda: start
    start_vacation(ana, "ana")
    ana.clock = lambda: start + timedelta(days=30)
    spent = vacation(ana, "ana")
    assert (spent.on, spent.days_used, spent.days_left) == (False, VACATION_DAYS, 0)  # it ended by itself
    with pytest.raises(TableError, match="all 14 vacation days of 2027"):
        start_vacation(ana, "ana")
    ana.clock = lambda: datetime(2028, 1, 2, tzinfo=UTC)
    assert start_vacation(ana, "ana").days_left == VACATION_DAYS - 1  # a new year, a new bank


def test_a_player_comes_back_without_a_token_and_drives_the_table(open_tables: Opener) -> None:
    ana, bea, code, session_id = turn_table(open_tables)
    ana.release_mine(left=True)
    bea.release_mine(left=True)
    assert ana.find(code).host_claim is None  # the table lives on with nobody there
    back = signed_in(open_tables, "bea")  # Bea signs in again later: a new process
    assert resume(back, code) == [1]
    info = back.find(code)
    assert info.seats[1].claim == back.claim and info.host_claim == back.claim  # it plays bots and steps now
    stranger = signed_in(open_tables, "cy")
    with pytest.raises(TableError, match="no seat"):
        resume(stranger, code)
    assert not take_helm(stranger, code)
    anon = open_tables()
    with pytest.raises(TableError, match="signed-in"):
        resume(anon, code)
    ana_back = signed_in(open_tables, "ana")
    assert resume(ana_back, code) == [0]
    play(ana_back, session_id, 0)
    with pytest.raises(SeatClaimError):
        play(ana, session_id, 1)  # the old process holds nothing now


def test_a_version_11_database_gains_pace_and_its_tables_stay_live() -> None:
    old_lobby(11)
    path = db_path()
    assert SCHEMA_VERSION >= 12
    with SessionStore() as store, Presence() as presence:
        tables = TableStore(store, presence)
        old = tables.find("KXMP")
        assert (old.turn_based, old.pace_days, old.timeout_bot) == (False, 0, None)
        assert old.seats[1].is_open and old.seats[1].timed_out_at is None
        tables.account = "hal"
        assert vacation(tables, "hal").days_left == VACATION_DAYS
        assert my_turn_tables(tables) == []
    conn = sqlite3.connect(path)
    assert conn.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION
    conn.close()


def test_a_secret_choice_stays_sealed_while_its_player_is_away_until_every_seat_has_chosen(
        open_tables: Opener) -> None:
    ana, bea = signed_in(open_tables, "ana"), signed_in(open_tables, "bea")
    plan = [SeatPlan("local", "Ana"), SeatPlan("remote", "Seat 2")]
    code = ana.host("wizards-cup", {}, 11, plan, host_name="Ana", pace_days=3).info.code
    bea.take_seat(code, 1, "Bea")
    session_id = turn_session(ana, code)
    live = LiveSession.load(ana.store, session_id, claim=ana.claim)
    rules, bot = live.rules, live.spec.bots["easy"]
    live.apply(0, bot(rules.view(live.state, 0), rules.legal_actions(live.state, 0), random.Random(1)))
    ana.release_mine(left=True)  # Ana chose her team and went away for days
    later_bea = LiveSession.load(later(bea, days=2).store, session_id, claim=bea.claim)  # a fresh process
    pending = later_bea.state.players[0].pending
    assert pending is not None and 1 in later_bea.to_act and 0 not in later_bea.to_act  # chosen, sealed
    chosen = {CARDS[str(card)].name for card in pending.get("cards", [])}  # type: ignore[attr-defined]
    displayed = CARDS[later_bea.state.players[0].displayed].name  # the one card a team shows face up
    assert len(chosen - {displayed}) >= 4
    assert chosen - {displayed} <= secrets_of(later_bea.state, 0, 1)  # none of the rest in Bea's view
    [waiting] = my_turn_tables(later(bea, days=2))
    assert waiting.my_move and waiting.waiting_for == ()  # Bea is asked; Ana's choice is in, unseen


def test_the_open_table_list_shows_a_turn_based_tables_days_per_move(open_tables: Opener) -> None:
    ana = signed_in(open_tables, "ana")
    live = ana.host("count-to-ten", {}, 7, PLAN, host_name="Ana", listed=True).info.code
    turn = ana.host("count-to-ten", {}, 7, PLAN, host_name="Ana", listed=True, pace_days=7).info.code
    paces = {table.code: (table.pace, table.pace_days) for table in open_tables().listed().tables}
    assert paces == {live: ("live", 0), turn: ("7d", 7)}


def test_a_newly_asked_seat_has_its_whole_time_until_its_deadline(open_tables: Opener) -> None:
    ana, _, code, session_id = turn_table(open_tables, pace_days=3)
    play(ana, session_id, 0)
    info, live = ana.find(code), LiveSession.load(ana.store, session_id)
    now = datetime.now(UTC) + timedelta(hours=6)
    ana.clock = lambda: now
    deadline = seat_deadline(ana, info, live, 1)
    assert deadline is not None and timedelta(days=2, hours=17) < deadline - now <= timedelta(days=2, hours=18)
    assert seat_deadline(ana, info, live, 0) is None  # not asked
    live_table = ana.host("count-to-ten", {}, 7, PLAN, host_name="Ana").info
    assert seat_deadline(ana, live_table, live, 1) is None  # a live table has no deadline


def test_a_player_whose_every_seat_went_to_the_bot_does_not_drive_the_table_from_afar(open_tables: Opener) -> None:
    ana, bea, code, _ = turn_table(open_tables, pace_days=1)
    ana.release_mine(left=True)
    my_turn_tables(later(bea, days=2))  # both seats ran out
    back = later(signed_in(open_tables, "ana"), days=2)
    assert resume(back, code) == []
    assert back.find(code).host_claim is None  # the driver's role waits for someone who sits there
    assert take_back(back, code) == [0] and resume(back, code) == [0]
    assert back.find(code).host_claim == back.claim


def test_a_turn_based_game_starts_when_its_last_seat_is_taken_whoever_is_connected(open_tables: Opener) -> None:
    ana, bea, cy = signed_in(open_tables, "ana"), signed_in(open_tables, "bea"), signed_in(open_tables, "cy")
    plan = [SeatPlan("local", "Ana"), SeatPlan("remote", "Seat 2"), SeatPlan("remote", "Seat 3")]
    code = ana.host("witchdraft", {}, 5, plan, host_name="Ana", pace_days=3, timeout_bot="easy").info.code
    bea.take_seat(code, 1, "Bea")
    bea.release_mine()  # her connection dropped: across time zones she is away, her seat stays hers
    assert ana.reopen_dropped(code) == []
    info = ana.find(code)
    assert info.status == "lobby" and info.seats[1].account == "bea" and not info.ready
    with pytest.raises(TableError, match="not taken"):
        ana.start(code)
    cy.take_seat(code, 2, "Cy")  # the last seat: the table is full and the game starts, Bea away
    info = ana.find(code)
    assert info.status == "playing" and info.seats[1].claim is None
    live = LiveSession.load(ana.store, turn_session(ana, code))
    assert 1 in live.to_act and [seat.name for seat in live.seats] == ["Ana", "Bea", "Cy"]
    with pytest.raises(TableError, match="already started"):
        ana.start(code)


def test_a_player_who_chooses_to_leave_a_turn_based_lobby_frees_the_seat(open_tables: Opener) -> None:
    ana, bea = signed_in(open_tables, "ana"), signed_in(open_tables, "bea")
    plan = [SeatPlan("local", "Ana"), SeatPlan("remote", "Seat 2"), SeatPlan("remote", "Seat 3")]
    code = ana.host("witchdraft", {}, 5, plan, host_name="Ana", pace_days=3, timeout_bot="easy").info.code
    bea.take_seat(code, 1, "Bea")
    bea.release_mine(left=True)
    assert ana.reopen_dropped(code) == [1]
    assert ana.find(code).seats[1].is_open


def test_a_live_table_still_waits_for_every_player_connected(open_tables: Opener) -> None:
    ana, bea = signed_in(open_tables, "ana"), signed_in(open_tables, "bea")
    code = ana.host("count-to-ten", {}, 7, PLAN, host_name="Ana").info.code
    bea.take_seat(code, 1, "Bea")
    assert ana.find(code).status == "lobby"  # a live table starts when its host says so
    bea.release_mine()
    with pytest.raises(TableError, match="not connected"):
        ana.start(code)
