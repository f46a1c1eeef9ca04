"""Preferences: per-account JSON values in the store, and what a hostile database holds in their place."""

from __future__ import annotations

import sqlite3

import pytest

from saves import SCHEMA_VERSION, SessionStore, db_path
from saves.checkup import examine
from saves.preferences import MAX_KEY_LENGTH, MAX_VALUE_BYTES, get_preference, set_preference
from saves.schema import MIGRATIONS


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


def _plant(account: str, key: str, value: object) -> None:
    """Write a row as a hostile program might, past every check."""
    conn = sqlite3.connect(db_path())
    conn.execute("INSERT OR REPLACE INTO preferences VALUES (?, ?, ?, 'then')", (account, key, value))
    conn.commit()
    conn.close()


@pytest.mark.parametrize("stored", [
    "{not json", "NaN", '{"a": Infinity}', "[" * 5000 + "]" * 5000, "[" * 17 + "]" * 17,
    '"' + "x" * MAX_VALUE_BYTES + '"', b"\xff\xfe", b'"\xc3"', "1" * 5000, None,
])
def test_a_damaged_or_hostile_value_reads_as_nothing(store: SessionStore, stored: object) -> None:
    conn = sqlite3.connect(db_path())
    # NOT NULL must be dodged too: a hostile program can rebuild the table without it.
    conn.execute("PRAGMA writable_schema = ON")
    conn.execute("UPDATE sqlite_master SET sql = replace(sql, 'value TEXT NOT NULL', 'value') WHERE name = 'preferences'")
    conn.commit()
    conn.close()
    with SessionStore() as fresh:
        _plant("", "k", stored)
        assert get_preference(fresh, None, "k") is None
        set_preference(fresh, None, "k", {"ok": 1})  # and it can be written over
        assert get_preference(fresh, None, "k") == {"ok": 1}


def test_a_closed_store_reads_as_nothing() -> None:
    store = SessionStore()
    set_preference(store, None, "k", 1)
    store.close()
    assert get_preference(store, None, "k") is None


def test_a_version_3_database_gains_the_table_and_keeps_its_sessions() -> None:
    conn = sqlite3.connect(db_path())
    for statements in MIGRATIONS[:3]:
        for statement in statements:
            conn.execute(statement)
    conn.execute("PRAGMA user_version = 3")
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
