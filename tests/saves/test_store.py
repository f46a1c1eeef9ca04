"""SessionStore: round trips, log integrity, damage handling and schema versions."""

from __future__ import annotations

import os
import sqlite3
from pathlib import Path

import pytest

from saves import (
    SCHEMA_VERSION,
    LogConflictError,
    NewerSchemaError,
    SeatInfo,
    SessionNotFoundError,
    SessionStore,
    StoreError,
    db_path,
)
from tests.helpers.damage_helpers import newer_coven_database
from tests.helpers.old_schema import old_schema

SEATS = [SeatInfo("Alice"), SeatInfo("Bot Bob", "bot", "easy")]


def test_db_path_follows_env(coven_data_dir: Path) -> None:
    assert db_path() == coven_data_dir / "coven.sqlite3"
    assert coven_data_dir.is_dir()


def test_round_trip_create_append_load() -> None:
    with SessionStore() as store:
        session_id = store.create_session("count-to-ten", {"target": 10}, 42, SEATS, progress="Total 0 of 10")
        store.append_action(session_id, 1, 0, {"add": 2})
        store.append_action(session_id, 2, None, {"bump": 1}, progress="Total 3 of 10")
        record = store.load(session_id)
    assert record.game_id == "count-to-ten"
    assert record.options == {"target": 10}
    assert record.seed == 42
    assert record.seats == tuple(SEATS)
    assert record.status == "active"
    assert record.progress == "Total 3 of 10"
    assert [(e.seq, e.seat, e.action) for e in record.log] == [(1, 0, {"add": 2}), (2, None, {"bump": 1})]
    assert all(e.created.endswith("+00:00") for e in record.log)


def test_uses_wal_and_schema_version() -> None:
    with SessionStore() as store:
        store.create_session("g", {}, 1, SEATS)
    conn = sqlite3.connect(db_path())
    assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    assert conn.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION
    conn.close()


def test_append_is_committed_before_return() -> None:
    store = SessionStore()
    session_id = store.create_session("g", {}, 1, SEATS)
    store.append_action(session_id, 1, 0, {"add": 1})
    # A separate connection sees it at once: nothing is waiting in a transaction.
    other = sqlite3.connect(db_path())
    assert other.execute("SELECT COUNT(*) FROM actions").fetchone()[0] == 1
    other.close()
    store.close()


def test_second_connection_cannot_fork_the_log() -> None:
    first, second = SessionStore(), SessionStore()
    session_id = first.create_session("g", {}, 1, SEATS)
    first.append_action(session_id, 1, 0, {"add": 1})
    with pytest.raises(LogConflictError, match="already has 1 action,"):
        second.append_action(session_id, 1, 1, {"add": 2})
    with pytest.raises(LogConflictError):
        second.append_action(session_id, 3, 1, {"add": 2})  # gaps are refused too
    assert [e.action for e in second.load(session_id).log] == [{"add": 1}]
    first.close()
    second.close()


def test_unique_constraint_is_the_backstop() -> None:
    with SessionStore() as store:
        session_id = store.create_session("g", {}, 1, SEATS)
        store.append_action(session_id, 1, 0, {"add": 1})
    conn = sqlite3.connect(db_path())
    with pytest.raises(sqlite3.IntegrityError):
        conn.execute("INSERT INTO actions VALUES (?, 1, 0, '{}', 'now')", (session_id,))
    conn.close()


def test_list_latest_update_delete() -> None:
    with SessionStore() as store:
        older = store.create_session("g", {}, 1, SEATS)
        newer = store.create_session("h", {}, 2, [SeatInfo("Cleo"), SeatInfo("Dee")])
        assert [s.session_id for s in store.list_sessions()] == [newer, older]
        store.append_action(older, 1, 0, {"add": 1})  # playing it makes it the newest
        summaries = store.list_sessions()
        assert [s.session_id for s in summaries] == [older, newer]
        assert summaries[0].seat_names == ("Alice", "Bot Bob")
        assert summaries[0].actions == 1
        assert store.latest_unfinished() == older
        store.update_status(older, "finished", "Total 10 of 10", "Alice won.")
        assert store.latest_unfinished() == newer
        assert store.load(older).result == "Alice won."
        store.delete(newer)
        assert store.latest_unfinished() is None
        with pytest.raises(SessionNotFoundError):
            store.load(newer)
        with pytest.raises(SessionNotFoundError):
            store.append_action(newer, 1, 0, {"add": 1})
    conn = sqlite3.connect(db_path())
    assert conn.execute("SELECT COUNT(*) FROM seats WHERE session_id = ?", (newer,)).fetchone()[0] == 0
    conn.close()


def test_rejects_non_json_and_bad_seats() -> None:
    with SessionStore() as store:
        session_id = store.create_session("g", {}, 1, SEATS)
        with pytest.raises(ValueError):
            store.append_action(session_id, 1, 0, {"x": object()})
        with pytest.raises(ValueError):
            store.append_action(session_id, 1, 0, {"x": float("nan")})
        assert store.load(session_id).log == ()
    with pytest.raises(ValueError):
        SeatInfo("  ")
    with pytest.raises(ValueError):
        SeatInfo("Al", "robot")  # type: ignore[arg-type]


def test_corrupt_database_is_moved_aside_not_deleted(coven_data_dir: Path) -> None:
    with SessionStore() as store:
        store.create_session("g", {}, 1, SEATS)
    garbage = b"this is not sqlite " * 500
    path = db_path()
    path.write_bytes(garbage)
    with SessionStore() as store:
        assert store.moved_to is not None
        assert store.notice is not None
        assert str(store.moved_to) in store.notice
        assert "unreadable" in store.notice
        assert store.moved_to.name.startswith("coven.sqlite3.corrupt-")
        assert store.moved_to.read_bytes() == garbage
        # The fresh database works.
        assert store.list_sessions() == []
        session_id = store.create_session("g", {}, 1, SEATS)
        assert store.load(session_id).seed == 1
    with SessionStore() as store:
        assert store.notice is None


def test_damaged_pages_and_companions_are_moved(coven_data_dir: Path) -> None:
    with SessionStore() as store:
        session_id = store.create_session("g", {}, 1, SEATS)
        for seq in range(1, 400):
            store.append_action(session_id, seq, 0, {"note": "x" * 200})
    conn = sqlite3.connect(db_path())
    conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    conn.close()
    data = bytearray(db_path().read_bytes())
    data[4096 * 2 : 4096 * 5] = os.urandom(4096 * 3)
    db_path().write_bytes(bytes(data))
    Path(f"{db_path()}-wal").write_bytes(b"")
    with SessionStore() as store:
        assert store.moved_to is not None
        assert store.moved_to.read_bytes() == bytes(data)
        assert Path(f"{store.moved_to}-wal").exists()
        assert store.list_sessions() == []


def test_foreign_sqlite_file_is_kept_aside() -> None:
    conn = sqlite3.connect(db_path())
    conn.execute("CREATE TABLE recipes (name TEXT)")
    conn.commit()
    conn.close()
    with SessionStore() as store:
        assert store.moved_to is not None
        kept = sqlite3.connect(store.moved_to)
        assert kept.execute("SELECT name FROM sqlite_master").fetchone()[0] == "recipes"
        kept.close()


@pytest.mark.parametrize(
    "damage",
    [
        "DROP TABLE sessions",
        "DROP TABLE actions",
        "ALTER TABLE seats DROP COLUMN bot_level",
        "ALTER TABLE sessions RENAME COLUMN progress TO progres",
        "DROP TABLE table_seats",
        "ALTER TABLE tables DROP COLUMN host_claim",
    ],
)
def test_missing_table_or_column_is_moved_aside(coven_data_dir: Path, damage: str) -> None:
    with SessionStore() as store:
        store.create_session("g", {}, 1, SEATS)
    conn = sqlite3.connect(db_path())
    conn.execute(damage)
    conn.commit()
    conn.close()
    damaged = db_path().read_bytes()
    with SessionStore() as store:
        assert store.moved_to is not None
        assert store.notice is not None and str(store.moved_to) in store.notice
        assert store.moved_to.read_bytes() == damaged  # kept, never deleted
        assert store.list_sessions() == []
        session_id = store.create_session("g", {}, 2, SEATS)
        assert store.load(session_id).seed == 2
    with SessionStore() as store:
        assert store.notice is None


def test_extra_tables_and_columns_are_not_damage() -> None:
    with SessionStore() as store:
        session_id = store.create_session("g", {}, 1, SEATS)
    conn = sqlite3.connect(db_path())
    conn.execute("CREATE TABLE notes (text TEXT)")
    conn.execute("ALTER TABLE sessions ADD COLUMN colour TEXT")
    conn.commit()
    conn.close()
    with SessionStore() as store:
        assert store.moved_to is None
        assert store.load(session_id).seed == 1


def test_newer_schema_is_refused_and_untouched(coven_data_dir: Path) -> None:
    before = newer_coven_database()
    stat_before = db_path().stat()
    with pytest.raises(NewerSchemaError) as caught:
        SessionStore()
    assert str(caught.value) == (
        f"This database was written by a newer Coven (schema 99; this Coven knows up to {SCHEMA_VERSION}). "
        "Upgrade Coven, or set COVEN_DATA_DIR to use another folder."
    )
    assert isinstance(caught.value, ValueError)
    assert db_path().read_bytes() == before
    assert db_path().stat().st_mtime_ns == stat_before.st_mtime_ns
    assert sorted(p.name for p in coven_data_dir.iterdir()) == ["coven.sqlite3", "coven.sqlite3.lock"]  # no companions made


def test_reopening_keeps_data() -> None:
    with SessionStore() as store:
        session_id = store.create_session("g", {"a": True}, 5, SEATS)
    with SessionStore() as store:
        assert store.load(session_id).options == {"a": True}
        assert store.notice is None


def test_version_2_database_is_upgraded_to_tables() -> None:
    """A database from before shared tables keeps its sessions and decks and gains the table rows."""
    conn = old_schema(2)
    conn.execute(
        "INSERT INTO sessions (game_id, options, seed, status, created, updated)"
        " VALUES ('count-to-ten', '{}', 7, 'active', 'then', 'then')"
    )
    conn.execute("INSERT INTO seats (session_id, seat, name, kind) VALUES (1, 0, 'Ana', 'human')")
    conn.execute("INSERT INTO decks (game_id, name, text, created, updated) VALUES ('wizbits', 'Ember', 'x', 't', 't')")
    conn.commit()
    conn.close()
    with SessionStore() as store:
        assert store.notice is None and store.moved_to is None
        assert store.load(1).seed == 7
        assert store.latest_unfinished() == 1
        store.append_action(1, 1, 0, {"add": 1}, claim="0123456789abcdef")  # not a table's: claims ignored
    conn = sqlite3.connect(db_path())
    assert conn.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION >= 3
    assert conn.execute("SELECT COUNT(*) FROM tables").fetchone() == (0,)
    assert conn.execute("SELECT COUNT(*) FROM table_seats").fetchone() == (0,)
    assert conn.execute("SELECT name FROM decks").fetchall() == [("Ember",)]
    conn.close()
    with SessionStore() as store:  # and it opens again as it is
        assert store.notice is None and store.log_length(1) == 1


def test_actions_after_and_seats_of() -> None:
    with SessionStore() as store:
        session_id = store.create_session("g", {}, 1, SEATS, log=[(0, {"add": 1}), (None, {"bump": 0})])
        store.append_action(session_id, 3, 1, {"add": 2})
        assert [(e.seq, e.seat, e.action) for e in store.actions_after(session_id, 1)] == [
            (2, None, {"bump": 0}),
            (3, 1, {"add": 2}),
        ]
        assert store.actions_after(session_id, 3) == []
        assert store.actions_after(999, 0) == []
        assert store.seats_of(session_id) == tuple(SEATS)
        assert store.seats_of(999) == ()


def test_data_version_moves_on_other_connections_commits_only() -> None:
    with SessionStore() as mine, SessionStore() as other:
        before_mine, before_other = mine.data_version(), other.data_version()
        mine.create_session("g", {}, 1, SEATS)
        assert mine.data_version() == before_mine
        assert other.data_version() != before_other
        mine.close()
        with pytest.raises(StoreError, match="closed"):
            mine.data_version()
