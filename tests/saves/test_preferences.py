"""Preferences: per-account JSON values in the store, and what a hostile database holds in their place."""

from __future__ import annotations

import sqlite3

import pytest

from saves import SCHEMA_VERSION, SessionStore, db_path
from saves.checkup import examine
from saves.preferences import (
    MAX_KEY_LENGTH,
    MAX_VALUE_BYTES,
    PreferenceProblem,
    PreferenceRead,
    get_preference,
    read_preference,
    set_preference,
    unreadable_preferences,
)
from tests.helpers.old_schema import old_schema
from tests.helpers.preference_damage import allow_null_values, plant


def test_a_value_round_trips_per_account(store: SessionStore) -> None:
    form = {"game": "wizbits", "names": ["Ana", "Bo"], "bots": [None, "normal"], "fast": True, "ratio": 0.5}
    set_preference(store, None, "new-game.last", form)
    set_preference(store, "bo", "new-game.last", {"game": "witchdraft"})
    assert get_preference(store, None, "new-game.last") == form
    assert get_preference(store, "bo", "new-game.last") == {"game": "witchdraft"}
    assert get_preference(store, "cy", "new-game.last") is None
    assert get_preference(store, None, "wizbits.auto-pass") is None
    set_preference(store, "bo", "new-game.last", [1, 2])  # replaces
    assert get_preference(store, "bo", "new-game.last") == [1, 2]
    set_preference(store, None, "wizbits.auto-pass", False)
    assert get_preference(store, None, "wizbits.auto-pass") is False


def test_values_survive_reopening() -> None:
    with SessionStore() as store:
        set_preference(store, "ana", "k", {"x": "Ëmber ✨"})
    with SessionStore() as store:
        assert get_preference(store, "ana", "k") == {"x": "Ëmber ✨"}


@pytest.mark.parametrize("key", ["", "a" * (MAX_KEY_LENGTH + 1), "é", "a b", ".start", "a\x1b", "a/b"])
def test_unusable_keys_are_refused_on_writing_and_read_as_nothing(store: SessionStore, key: str) -> None:
    with pytest.raises(ValueError, match="preference key"):
        set_preference(store, None, key, 1)
    assert get_preference(store, None, key) is None


def test_longest_key_is_allowed(store: SessionStore) -> None:
    set_preference(store, None, "k" * MAX_KEY_LENGTH, 1)
    assert get_preference(store, None, "k" * MAX_KEY_LENGTH) == 1


@pytest.mark.parametrize("account", ["", "x" * 65, "a\x1bb", "a\u202eb"])
def test_unusable_accounts_are_refused(store: SessionStore, account: str) -> None:
    with pytest.raises(ValueError, match="account"):
        set_preference(store, account, "k", 1)
    assert get_preference(store, account, "k") is None


@pytest.mark.parametrize("value", [float("nan"), float("inf"), {1, 2}, object(), b"bytes"])
def test_values_that_are_not_json_are_refused(store: SessionStore, value: object) -> None:
    with pytest.raises(ValueError, match="JSON"):
        set_preference(store, None, "k", value)
    assert get_preference(store, None, "k") is None


def test_size_and_depth_bounds(store: SessionStore) -> None:
    fits = "x" * (MAX_VALUE_BYTES - 2)  # with its two quotes
    set_preference(store, None, "big", fits)
    assert get_preference(store, None, "big") == fits
    with pytest.raises(ValueError, match="at most 16 KiB"):
        set_preference(store, None, "big", fits + "x")
    assert get_preference(store, None, "big") == fits  # nothing lost
    deep: object = 0
    for _ in range(16):
        deep = [deep]
    set_preference(store, None, "deep", deep)
    with pytest.raises(ValueError, match="nest"):
        set_preference(store, None, "deep", [deep])


_NOT_JSON, _TOO_BIG, _TOO_DEEP, _BAD_TEXT, _NAN = (
    PreferenceProblem.NOT_JSON, PreferenceProblem.TOO_BIG, PreferenceProblem.TOO_DEEP, PreferenceProblem.BAD_TEXT,
    PreferenceProblem.NOT_A_NUMBER,
)


def _unreadable(store: SessionStore) -> list[tuple[str, str, PreferenceProblem]]:
    """What the doctor's check finds, through a read-only connection as the doctor's is."""
    conn = sqlite3.connect(f"{db_path().as_uri()}?mode=ro", uri=True)
    try:
        return [(found.account, found.key, found.problem) for found in unreadable_preferences(conn)]
    finally:
        conn.close()


@pytest.mark.parametrize(("stored", "as_text", "problem"), [
    ("{not json", True, _NOT_JSON), ("", True, _NOT_JSON), ('"a\x01"', True, _NOT_JSON), (None, True, _NOT_JSON),
    ("[" * 5000 + "]" * 5000, True, _TOO_DEEP), ("[" * 17 + "]" * 17, True, _TOO_DEEP),
    ('{"a":' * 17 + "1" + "}" * 17, True, _TOO_DEEP),
    ('"' + "x" * MAX_VALUE_BYTES + '"', True, _TOO_BIG), (b"\xff" * (MAX_VALUE_BYTES * 4), False, _TOO_BIG),
    (b"\xff\xfe", False, _BAD_TEXT), (b"\xff\xfe", True, _BAD_TEXT), (b'"\xc3"', True, _BAD_TEXT),
    (b'"\xed\xa0\x80"', True, _BAD_TEXT), ('"\\ud800"', True, _BAD_TEXT), ('{"\\udfff": 1}', True, _BAD_TEXT),
    ("NaN", True, _NAN), ('{"a": Infinity}', True, _NAN), ("[-Infinity]", True, _NAN), ("1e999", True, _NAN),
    ("1" * 5000, True, _NAN),
])
def test_a_damaged_or_hostile_value_reads_as_nothing_and_says_why(
        store: SessionStore, stored: bytes | str | None, as_text: bool, problem: PreferenceProblem) -> None:
    allow_null_values()  # NOT NULL must be dodged too: a hostile program can rebuild the table without it
    with SessionStore() as fresh:
        set_preference(fresh, "ana", "k", "fine")
        plant("", "k", stored, as_text=as_text)
        assert get_preference(fresh, None, "k") is None
        assert read_preference(fresh, None, "k") == PreferenceRead(None, problem)
        assert read_preference(fresh, "ana", "k") == PreferenceRead("fine")  # another account's is untouched
        assert _unreadable(fresh) == [("", "k", problem)]
        set_preference(fresh, None, "k", {"ok": 1})  # and it can be written over
        assert read_preference(fresh, None, "k") == PreferenceRead({"ok": 1})
        assert _unreadable(fresh) == []


@pytest.mark.parametrize("stored", [b'"\xc3\xa9"', '"\\u00e9"', '"\\ud83d\\ude00"', " [1, 2.5, -0, 1e3] ", "5"])
def test_values_another_writer_might_store_read_as_what_they_are(store: SessionStore, stored: bytes | str) -> None:
    plant("", "k", stored, as_text=False)  # a BLOB holding good UTF-8 is read too
    found = read_preference(store, None, "k")
    assert found.problem is None and found.value is not None and _unreadable(store) == []


def test_the_size_bound_holds_exactly_at_the_limit_when_reading(store: SessionStore) -> None:
    at_limit = '"' + "é" * ((MAX_VALUE_BYTES - 2) // 2) + '"'  # counted in bytes, not characters
    assert len(at_limit.encode()) == MAX_VALUE_BYTES
    plant("", "k", at_limit)
    assert read_preference(store, None, "k") == PreferenceRead(at_limit[1:-1])
    one_past = at_limit[:-1] + 'x"'
    plant("", "k", one_past)
    assert read_preference(store, None, "k") == PreferenceRead(None, PreferenceProblem.TOO_BIG)
    assert _unreadable(store) == [("", "k", PreferenceProblem.TOO_BIG)]


def test_the_check_names_each_account_and_key_and_leaves_the_file_alone(store: SessionStore) -> None:
    set_preference(store, None, "setting.theme", "nord")
    set_preference(store, "ana", "setting.theme", "nord")
    plant("ana", "setting.linear", b"\xff", as_text=True)
    plant("bo\x1b", "new-game.last", "NaN")
    plant("", "setting.glyphs", "tru")
    before = db_path().read_bytes()
    assert _unreadable(store) == [
        ("ana", "setting.linear", _BAD_TEXT), ("bo\x1b", "new-game.last", _NAN), ("", "setting.glyphs", _NOT_JSON),
    ]
    assert db_path().read_bytes() == before
    conn = sqlite3.connect(db_path())
    try:  # the rowid names the row, for a caller that removes it
        for found in unreadable_preferences(conn):
            row = conn.execute("SELECT account, key FROM preferences WHERE rowid = ?", (found.rowid,)).fetchone()
            assert row == (found.account, found.key) and found.for_this_machine is (found.account == "")
    finally:
        conn.close()


def test_an_account_or_key_that_is_not_text_is_still_named_by_its_rowid(store: SessionStore) -> None:
    conn = sqlite3.connect(db_path())
    conn.execute("INSERT INTO preferences VALUES (CAST(x'616eff' AS TEXT), 'k', 'NaN', 't')")
    conn.commit()
    try:
        [found] = unreadable_preferences(conn)
    finally:
        conn.close()
    assert found.account == "an\ufffd" and found.key == "k" and found.problem is _NAN and found.rowid >= 1


def test_a_closed_store_reads_as_nothing() -> None:
    store = SessionStore()
    set_preference(store, None, "k", 1)
    store.close()
    assert get_preference(store, None, "k") is None


def test_a_version_3_database_gains_the_table_and_keeps_its_sessions() -> None:
    conn = old_schema(3)
    conn.execute("INSERT INTO decks (game_id, name, text, created, updated) VALUES ('wizbits', 'E', '', 't', 't')")
    conn.commit()
    conn.close()
    with SessionStore() as store:
        assert store.notice is None
        set_preference(store, "ana", "k", "v")
        assert get_preference(store, "ana", "k") == "v"
    conn = sqlite3.connect(db_path())
    assert conn.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION
    assert conn.execute("SELECT name FROM decks").fetchall() == [("E",)]
    conn.close()


def test_doctor_knows_the_table() -> None:
    with SessionStore() as store:
        set_preference(store, None, "k", 1)
    assert not examine(db_path()).problems
    conn = sqlite3.connect(db_path())
    conn.execute("DROP TABLE preferences")
    conn.commit()
    conn.close()
    assert any("preferences is missing" in problem for problem in examine(db_path()).problems)
