"""Fuzzing a scratch database: damaged rows and a damaged schema end in a clear message or a clean refusal.

Never a traceback, never "Unexpected error", and never a file deleted. The
seed is fixed (``derandomize``) and the examples bounded, so the suite's time
and result do not vary from run to run.
"""

from __future__ import annotations

import sqlite3
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from saves import DamagedSession, LiveSession, SeatInfo, SessionStore, SessionSummary, StoreError, db_path
from tests.helpers.fake_game import Add
from tui.cli import main

FUZZ = settings(derandomize=True, max_examples=60, deadline=None,
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])

COLUMNS = {
    "sessions": ("game_id", "options", "seed", "status", "progress", "result", "created", "updated", "owner"),
    "seats": ("seat", "name", "kind", "bot_level"),
    "actions": ("seq", "seat", "action", "created"),
}

# What a broken or hostile program might leave in a cell: every SQLite type, odd text, bytes that are not UTF-8.
VALUES = st.one_of(
    st.none(),
    st.integers(min_value=-(2**63), max_value=2**63 - 1),
    st.floats(allow_nan=True, allow_infinity=True),
    st.text(alphabet=st.characters(exclude_categories=["Cs"]), max_size=30),
    st.sampled_from(["", " ", "weird", "alien", "bot", "human", "finished", "{}", "[]", "null", '{"add": 1}',
                     '{"add": "x"}', '{"target": "many"}', '{"target": 10', "\x1b[2J\x1b]0;owned\x07", "[bold]x"]),
    st.binary(max_size=12).map(lambda raw: ("blob", raw)),
    st.binary(min_size=1, max_size=12).map(lambda raw: ("text-bytes", raw)),
)


def _bind(value: object) -> tuple[str, tuple[object, ...]]:
    """The SQL expression and parameters that store ``value`` as it is meant (raw bytes as TEXT too)."""
    if isinstance(value, tuple) and value[0] == "text-bytes":
        return "CAST(? AS TEXT)", (value[1],)
    if isinstance(value, tuple):
        return "?", (value[1],)
    return "?", (value,)


@contextmanager
def _scratch(monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """A fresh data folder for one example, used by the store and the CLI alike."""
    with tempfile.TemporaryDirectory() as folder, monkeypatch.context() as patch:
        patch.setenv("COVEN_DATA_DIR", folder)
        yield Path(folder)


def _cli_is_calm(capsys: pytest.CaptureFixture[str], *argv: str) -> None:
    code = main(list(argv))
    captured = capsys.readouterr()
    assert code in (0, 1), (argv, code, captured.err)
    assert "Unexpected error" not in captured.err and "Traceback" not in captured.err
    assert "\x1b" not in captured.out + captured.err


def _two_sessions(store: SessionStore) -> tuple[int, int]:
    names = [SeatInfo("Ana"), SeatInfo("Bea")]
    good = LiveSession.create(store, "count-to-ten", None, 1, names)
    bad = LiveSession.create(store, "count-to-ten", None, 2, names)
    for live in (good, bad):
        for _ in range(4):
            seat = live.to_act[0] if live.to_act else None
            live.apply(seat, Add(1)) if seat is not None else live.play_table()
    return good.session_id, bad.session_id


@FUZZ
@given(
    changes=st.lists(
        st.tuples(st.sampled_from(sorted(COLUMNS)), st.data()), min_size=1, max_size=3
    ),
)
def test_damaged_rows_never_crash_the_store_or_the_cli(
    changes: list[tuple[str, st.DataObject]], fake_spec: object, monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    with _scratch(monkeypatch) as folder:
        with SessionStore() as store:
            good, bad = _two_sessions(store)
        conn = sqlite3.connect(db_path(), isolation_level=None)
        conn.execute("PRAGMA ignore_check_constraints = ON")
        key = {"sessions": "id", "seats": "session_id", "actions": "session_id"}
        changed = 0
        for table, data in changes:
            column = data.draw(st.sampled_from(COLUMNS[table]))
            expression, params = _bind(data.draw(VALUES))
            try:
                conn.execute(f"UPDATE {table} SET {column} = {expression} WHERE {key[table]} = ?", (*params, bad))
                changed += 1
            except sqlite3.IntegrityError:
                pass  # NOT NULL or UNIQUE: SQLite itself refuses that damage
        conn.close()
        assume(changed)
        with SessionStore() as store:
            entries = {entry.session_id: entry for entry in store.list_sessions()}
            assert isinstance(entries[good], SessionSummary)
            assert isinstance(entries[bad], SessionSummary | DamagedSession)
            assert len(LiveSession.load(store, good).log) == 4
            try:
                LiveSession.load(store, bad)
            except StoreError as error:
                assert str(error)
            else:
                assert not isinstance(entries[bad], DamagedSession)  # the list never calls openable damaged
        _cli_is_calm(capsys, "sessions")
        _cli_is_calm(capsys, "export", str(bad), str(folder / "out.json"))
        _cli_is_calm(capsys, "doctor")


SCHEMA_OBJECTS = ["sessions", "seats", "actions", "decks", "tables", "table_seats", "sessions_by_updated",
                  "tables_live_code", "tables_by_session", "sqlite_autoindex_actions_1"]


@st.composite
def _schema_damage(draw: st.DrawFn) -> tuple[str, str, object]:
    """Which object, which column of ``sqlite_master``, and what to put there."""
    name = draw(st.sampled_from(SCHEMA_OBJECTS))
    column = draw(st.sampled_from(["sql", "sql", "sql", "name", "tbl_name", "type", "rootpage"]))
    if column != "sql":
        return name, column, draw(VALUES)
    edits = draw(st.lists(st.tuples(st.floats(0, 1), st.sampled_from(["flip", "drop", "add"]), st.integers(0, 255)),
                          min_size=1, max_size=4))
    return name, column, ("edits", edits)


def _edited(sql: bytes, edits: list[tuple[float, str, int]]) -> bytes:
    text = bytearray(sql)
    for where, how, byte in edits:
        at = min(int(where * len(text)), max(len(text) - 1, 0))
        if how == "flip" and text:
            text[at] = byte
        elif how == "drop" and text:
            del text[at]
        else:
            text.insert(at, byte)
    return bytes(text)


@FUZZ
@given(damage=_schema_damage())
def test_a_damaged_schema_is_moved_aside_or_refused_in_words(
    damage: tuple[str, str, object], fake_spec: object, monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    name, column, value = damage
    with _scratch(monkeypatch) as folder:
        with SessionStore() as store:
            _, session_id = _two_sessions(store)
        conn = sqlite3.connect(db_path(), isolation_level=None)
        conn.text_factory = bytes
        conn.execute("PRAGMA writable_schema = ON")
        if isinstance(value, tuple) and value[0] == "edits":
            (sql,) = conn.execute("SELECT sql FROM sqlite_master WHERE name = ?", (name,)).fetchone()
            expression, params = "CAST(? AS TEXT)", (_edited(sql or b"", value[1]),)
        else:
            expression, params = _bind(value)
        try:
            conn.execute(f"UPDATE sqlite_master SET {column} = {expression} WHERE name = ?", (*params, name))
        except sqlite3.DatabaseError:
            pass  # SQLite refused to write that much damage; what is left is still worth opening
        conn.close()
        damaged = db_path().read_bytes()
        try:
            store = SessionStore()
        except StoreError as error:
            assert str(error)
        else:
            with store:
                if store.moved_to is not None:
                    assert store.notice and str(store.moved_to) in store.notice
                    assert store.moved_to.read_bytes() == damaged  # kept, never deleted
                for action in (store.list_sessions, lambda: LiveSession.load(store, session_id),
                               lambda: store.create_session("count-to-ten", {}, 3, [SeatInfo("Cy"), SeatInfo("Di")])):
                    try:
                        action()
                    except StoreError as error:
                        assert str(error)
        _cli_is_calm(capsys, "sessions")
        _cli_is_calm(capsys, "doctor")
        assert any(path.name.startswith("coven.sqlite3") for path in folder.iterdir())
