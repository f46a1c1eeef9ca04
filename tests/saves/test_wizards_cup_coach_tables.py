"""The host's coach switch is stored with a table: schema 8, its migration from 7, and what the lobby says."""

from __future__ import annotations

import sqlite3

from saves import SessionStore, db_path
from saves.presence import Presence
from saves.schema import SCHEMA_VERSION
from saves.tables import SeatPlan, TableStore
from tests.helpers.old_schema import old_lobby
from tui.coach_access import HOST_SAID_NO, SPECTATOR, coach_line, table_refusal

PLAN = [SeatPlan("local", "Hal"), SeatPlan("remote", "Seat 2")]


def test_a_version_7_database_gains_the_switch_and_its_tables_stay_without_the_coach() -> None:
    old_lobby(7, host_claim=None)
    path = db_path()
    assert SCHEMA_VERSION >= 8
    with SessionStore() as store, Presence() as presence:
        assert store.notice is None and store.moved_to is None
        old = TableStore(store, presence).find("KXMP")
        assert old.coach is False and old.allow_spectators  # the rest of the row as it was
    conn = sqlite3.connect(path)
    assert conn.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION
    assert conn.execute("SELECT coach FROM tables").fetchall() == [(0,)]
    try:  # the column takes a switch, nothing else
        conn.execute("UPDATE tables SET coach = 2")
        raise AssertionError("coach = 2 was accepted")
    except sqlite3.IntegrityError:
        pass
    conn.close()


def test_the_host_opens_a_table_with_or_without_the_coach_and_the_lobby_says_which() -> None:
    with SessionStore() as store, Presence() as presence:
        tables = TableStore(store, presence)
        plain = tables.host("wizards-cup", {}, 3, PLAN, host_name="Hal").info
        allowed = tables.host("wizards-cup", {}, 3, PLAN, host_name="Hal", allow_coach=True).info
        assert not plain.coach and allowed.coach
        assert tables.find(allowed.code).coach and not tables.find(plain.code).coach
        assert "not during play" in coach_line(plain) and "may ask" in coach_line(allowed)
        other_game = tables.host("witchdraft", {}, 3, PLAN, host_name="Hal", allow_coach=True).info
        assert coach_line(other_game) == ""  # a game without a coach: nothing to say


def test_who_may_ask_the_coach_at_a_table() -> None:
    assert table_refusal(host_allows=False, plays_a_seat=True) == HOST_SAID_NO
    assert table_refusal(host_allows=True, plays_a_seat=True) is None
    assert table_refusal(host_allows=True, plays_a_seat=False) == SPECTATOR  # never a spectator
