"""Damaged databases: rows Coven never writes, a damaged schema, an index that hides moves, the -wal left behind."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import pytest

from saves import (
    DamagedSession,
    DamagedSessionError,
    LiveSession,
    SeatInfo,
    SessionSummary,
    StoreError,
    db_path,
    export_session,
    import_session,
)
from saves.store import SessionStore
from tests.helpers.damage_helpers import (
    damage_an_index_page,
    damaged_copy_with_companions,
    hide_moves_from_the_index,
    rows,
    two_sessions,
    write_damage,
)
from tests.helpers.fake_game import Add
from tui.cli import main

SEATS = [SeatInfo("Alice"), SeatInfo("Bot Bob", "bot", "easy")]

# (damage, a phrase of the reason the sessions list gives). ``?`` is the damaged session's id.
ROW_DAMAGE = [
    ("UPDATE sessions SET status = 'weird' WHERE id = ?", "status is 'weird'"),
    ("UPDATE seats SET kind = 'alien' WHERE session_id = ? AND seat = 1", "seat 2 is unreadable"),
    ("UPDATE seats SET name = '   ' WHERE session_id = ? AND seat = 0", "seat 1 is unreadable"),
    ("UPDATE seats SET name = CAST(X'41FF42' AS TEXT) WHERE session_id = ? AND seat = 0", "seat 1 is unreadable"),
    ("UPDATE seats SET seat = 5 WHERE session_id = ? AND seat = 1", "seats are numbered"),
    ("DELETE FROM seats WHERE session_id = ?", "no seats"),
    ("UPDATE sessions SET seed = 'abc' WHERE id = ?", "seed is 'abc'"),
    ("UPDATE sessions SET seed = 1.5 WHERE id = ?", "seed is 1.5"),
    ("UPDATE sessions SET options = '{not json' WHERE id = ?", "options are not a JSON object"),
    ("UPDATE sessions SET options = '[1, 2]' WHERE id = ?", "options are not a JSON object"),
    ("UPDATE sessions SET game_id = X'00FF' WHERE id = ?", "game id"),
    ("UPDATE sessions SET game_id = '' WHERE id = ?", "game id is blank"),
    ("UPDATE sessions SET progress = char(27) || '[2J' WHERE id = ?", "progress holds a control character"),
    ("UPDATE sessions SET result = X'01' WHERE id = ?", "result is b'\\x01'"),
    ("UPDATE sessions SET updated = X'02' WHERE id = ?", "last played time is b'\\x02'"),
    ("UPDATE actions SET seq = -1 WHERE session_id = ? AND seq = 1", "gap"),
    ("UPDATE actions SET seq = 'two' WHERE session_id = ? AND seq = 2", "number is not a whole number"),
    ("UPDATE actions SET seq = 7 WHERE session_id = ? AND seq = 2", "gap"),
]


@pytest.mark.parametrize(("damage", "phrase"), ROW_DAMAGE)
def test_a_damaged_session_is_listed_with_its_reason_and_refused(
    damage: str, phrase: str, fake_spec: object, tmp_path: Path
) -> None:
    good, bad = two_sessions()
    write_damage(damage, bad)
    with SessionStore() as store:
        entries = {entry.session_id: entry for entry in store.list_sessions()}
        assert isinstance(entries[good], SessionSummary)
        damaged = entries[bad]
        assert isinstance(damaged, DamagedSession)
        assert phrase in damaged.reason
        assert f"Session {bad} is damaged and cannot be opened" in damaged.message
        # It cannot be opened, resumed or exported; the other one still can.
        with pytest.raises(DamagedSessionError) as caught:
            store.load(bad)
        assert caught.value.session_id == bad and caught.value.reason
        with pytest.raises(DamagedSessionError):
            LiveSession.load(store, bad)
        with pytest.raises(StoreError, match="damaged"):
            export_session(store, bad, tmp_path / "out.json")
        assert not (tmp_path / "out.json").exists()
        assert LiveSession.load(store, good).log[0].action == {"add": 1}
        export_session(store, good, tmp_path / "good.json")


@pytest.mark.parametrize(("damage", "phrase"), ROW_DAMAGE[:4] + ROW_DAMAGE[12:13])
def test_coven_sessions_lists_a_damaged_session_without_an_unexpected_error(
    damage: str, phrase: str, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    _, bad = two_sessions()
    write_damage(damage, bad)
    assert main(["sessions"]) == 0
    captured = capsys.readouterr()
    assert "Unexpected error" not in captured.out + captured.err
    assert "damaged" in captured.out and "coven doctor" in captured.out
    assert "\x1b" not in captured.out
    assert main(["export", str(bad), str(tmp_path / "x.json")]) == 1
    err = capsys.readouterr().err
    assert f"Session {bad} is damaged and cannot be opened" in err and "Unexpected error" not in err


@pytest.mark.parametrize(
    ("damage", "reason"),
    [
        ("UPDATE actions SET seat = 7 WHERE session_id = ? AND seq = 2", "action 2 names seat 7"),
        ("UPDATE actions SET action = '{oops' WHERE session_id = ? AND seq = 2", "action 2 is not a JSON object"),
        ("UPDATE actions SET action = '\"text\"' WHERE session_id = ? AND seq = 1", "action 1 is not a JSON object"),
        ("UPDATE actions SET created = X'1B' WHERE session_id = ? AND seq = 1", "action 1's time is b'\\x1b'"),
    ],
)
def test_a_damaged_move_is_refused_on_opening(damage: str, reason: str, tmp_path: Path,
                                              capsys: pytest.CaptureFixture[str]) -> None:
    # The list checks numbers only (parsing every move of a large file would slow it down); opening checks each.
    _, bad = two_sessions()
    write_damage(damage, bad)
    with SessionStore() as store, pytest.raises(DamagedSessionError) as caught:
        store.load(bad)
    assert reason in caught.value.reason
    assert main(["export", str(bad), str(tmp_path / "x.json")]) == 1
    assert reason in capsys.readouterr().err
    assert main(["doctor"]) == 1
    assert f"Session {bad} cannot be opened: {reason}" in capsys.readouterr().out


# -- an index that disagrees with its table -------------------------------------------


def test_a_damaged_log_index_never_truncates_a_session(fake_spec: object) -> None:
    with SessionStore() as store:
        live = LiveSession.create(store, "count-to-ten", {"target": 1000}, 3, SEATS[:1] + [SeatInfo("Bea")])
        other = LiveSession.create(store, "count-to-ten", {"target": 1000}, 4, SEATS[:1] + [SeatInfo("Bea")])
        for _ in range(30):
            for session in (live, other):
                seat = session.to_act[0] if session.to_act else None
                session.apply(seat, Add(1)) if seat is not None else session.play_table()
    before = rows("actions", live.session_id)
    assert len(before) == 30
    hide_moves_from_the_index(live.session_id, keep=10)
    with SessionStore() as store:
        assert store.notice is None  # quick_check passed: nothing is moved aside for this
        entries = {entry.session_id: entry for entry in store.list_sessions()}
        damaged = entries[live.session_id]
        assert isinstance(damaged, DamagedSession)
        assert "index of its log lists 10 actions but the log itself holds 30" in damaged.reason
        with pytest.raises(DamagedSessionError, match="lists 10 actions but the log itself holds 30"):
            LiveSession.load(store, live.session_id)
        assert len(LiveSession.load(store, other.session_id).log) == 30
    assert rows("actions", live.session_id) == before  # never rewritten to match a shorter read


# -- damage in the schema text ---------------------------------------------------------


@pytest.mark.parametrize(
    "schema_damage",
    [
        # "malformed database schema (sessions)"
        "UPDATE sqlite_master SET sql = 'CREATE TABLE sessions (id INTEGER PRIMARY KEY, game_id' WHERE name = 'sessions'",
        # SQLite's own error quotes bytes that are not UTF-8: a UnicodeDecodeError before the fix
        "UPDATE sqlite_master SET name = CAST(X'FF' AS TEXT) WHERE name = 'sessions_by_updated'",
        "UPDATE sqlite_master SET sql = CAST(X'4352454154452054414246FF28' AS TEXT) WHERE name = 'sessions'",
        # a CHECK naming a column that is not there: reads work, every save fails
        "UPDATE sqlite_master SET sql = replace(sql, 'CHECK (seat >= 0)', 'CHECK (sOat >= 0)') WHERE name = 'seats'",
        # a collation SQLite does not know
        "UPDATE sqlite_master SET sql = replace(sql, 'COLLATE NOCASE', 'COLLATE NCASE') WHERE name = 'decks'",
    ],
)
def test_a_damaged_schema_is_moved_aside_with_its_companions(schema_damage: str, coven_data_dir: Path) -> None:
    wal = damaged_copy_with_companions(schema_damage)
    assert wal  # the damage is in the -wal
    with SessionStore() as store:
        assert store.moved_to is not None
        assert store.notice is not None and str(store.moved_to) in store.notice
        assert Path(f"{store.moved_to}-wal").read_bytes() == wal  # kept, never deleted
        assert Path(f"{store.moved_to}-shm").exists()
        assert store.list_sessions() == []
        session_id = store.create_session("count-to-ten", {}, 2, SEATS)
        assert store.load(session_id).seed == 2
    with SessionStore() as store:
        assert store.notice is None


def test_a_damaged_schema_no_longer_stops_the_cli(coven_data_dir: Path, capsys: pytest.CaptureFixture[str]) -> None:
    damaged_copy_with_companions(
        "UPDATE sqlite_master SET name = CAST(X'FF' AS TEXT) WHERE name = 'sessions_by_updated'"
    )
    assert main(["sessions"]) == 0
    captured = capsys.readouterr()
    assert "moved to" in captured.err and "Unexpected error" not in captured.err
    assert "No saved sessions yet" in captured.out


# -- WAL hygiene -------------------------------------------------------------------------


def _wal_size() -> int:
    wal = Path(f"{db_path()}-wal")
    return wal.stat().st_size if wal.exists() else 0


def test_an_import_leaves_no_big_write_ahead_log_behind(tmp_path: Path, fake_spec: object) -> None:
    with SessionStore() as store:
        live = LiveSession.create(store, "count-to-ten", {"target": 1000}, 5, SEATS[:1] + [SeatInfo("Bea")])
        for _ in range(600):
            seat = live.to_act[0] if live.to_act else None
            live.apply(seat, Add(1)) if seat is not None else live.play_table()
        export_session(store, live.session_id, tmp_path / "big.json")
    assert (tmp_path / "big.json").stat().st_size > 40_000
    other = sqlite3.connect(db_path())  # another Coven, idle: the last-close checkpoint never comes
    other.execute("SELECT count(*) FROM sessions").fetchone()
    try:
        store = SessionStore()
        try:
            imported = import_session(store, tmp_path / "big.json")
            assert _wal_size() == 0  # truncated right after the import
            assert len(store.load(imported).log) == 600
            store.append_action(imported, 601, None, json.loads('{"bump": 0}'))
            assert _wal_size() > 0
        finally:
            store.close()
        assert _wal_size() == 0  # and again on a clean close, though `other` is still open
    finally:
        other.close()


def test_a_locked_database_is_refused_in_words_never_moved(coven_data_dir: Path) -> None:
    two_sessions()
    holder = sqlite3.connect(db_path(), isolation_level=None)
    holder.execute("PRAGMA locking_mode = EXCLUSIVE")
    holder.execute("BEGIN EXCLUSIVE")
    holder.execute("UPDATE sessions SET progress = 'held'")
    try:
        with pytest.raises(StoreError, match="locked"):
            SessionStore(timeout=0.1)
    finally:
        holder.execute("ROLLBACK")
        holder.close()
    assert not any(".corrupt-" in path.name for path in coven_data_dir.iterdir())
    with SessionStore() as store:
        assert store.notice is None and len(store.list_sessions()) == 2


def test_damage_in_an_index_page_is_found_only_by_reading_every_page(coven_data_dir: Path) -> None:
    with SessionStore() as store:
        store.create_session("count-to-ten", {}, 1, SEATS)
    damage_an_index_page(db_path())
    # A served player's Coven leaves that read to the server (it checks the header, the schema and its writes).
    with SessionStore(every_page=False) as store:
        assert store.moved_to is None and store.notice is None
    with SessionStore() as store:
        assert store.moved_to is not None and store.notice is not None
        assert store.list_sessions() == []
