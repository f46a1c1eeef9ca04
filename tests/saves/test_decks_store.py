"""Saved deck lists: the store, its schema migration, deck files, and playing a saved deck."""

from __future__ import annotations

import os
import random
import sqlite3
from collections.abc import Iterator
from pathlib import Path

import pytest

from engine.wizbits.cards.starter_decks import TIDAL_DUSK
from saves import SCHEMA_VERSION, LiveSession, SeatInfo, SessionStore, db_path, export_session, import_session
from saves.decks import (
    MAX_DECK_BYTES,
    DeckError,
    DeckExistsError,
    DeckFileError,
    DeckNotFoundError,
    DeckStore,
    InvalidDeckError,
    deck_summary,
    read_deck_file,
)
from tests.helpers.decks_store import EMBER_TEXT
from tests.helpers.old_schema import old_schema

# Ember Dawn's cards led by another Character: a deck no starter id names.
SQUIRE_TEXT = EMBER_TEXT.replace(" *", "").replace("4 Emberbeetle Squire", "4 Emberbeetle Squire *")


@pytest.fixture
def decks() -> Iterator[DeckStore]:
    store = SessionStore()
    yield DeckStore(store)
    store.close()


def test_save_list_load_round_trip(decks: DeckStore) -> None:
    saved = decks.save_deck("  Fire Rush ", SQUIRE_TEXT)
    decks.save_deck("Ember", EMBER_TEXT)
    assert saved.name == "Fire Rush"
    assert [deck.name for deck in decks.list_decks()] == ["Ember", "Fire Rush"]
    loaded = decks.load_deck("fire rush")
    assert loaded.text == SQUIRE_TEXT
    assert loaded.game_id == "wizbits"
    assert loaded.created == loaded.updated == saved.created
    assert deck_summary(loaded.text) == "60 cards, Main Character Emberbeetle Squire"


def test_decks_outlive_the_connection() -> None:
    with SessionStore() as store:
        DeckStore(store).save_deck("Ember", EMBER_TEXT)
    with SessionStore() as store:
        assert DeckStore(store).load_deck("Ember").text == EMBER_TEXT


def test_invalid_list_is_refused_with_line_numbers(decks: DeckStore) -> None:
    text = "# mine\n4 Sparkswarm Volley\n4 Fireball\n7 Flickerwand\n"
    with pytest.raises(InvalidDeckError) as caught:
        decks.save_deck("Broken", text)
    assert [str(problem) for problem in caught.value.problems] == [
        "line 3: unknown card 'Fireball'",
        "line 4: count must be 1-4",
    ]
    assert decks.list_decks() == []


def test_rules_problems_are_refused_too(decks: DeckStore) -> None:
    short = "4 Emberbeetle Squire *\n4 Sparkswarm Volley\n"
    with pytest.raises(InvalidDeckError, match="8 cards; it needs at least 60"):
        decks.save_deck("Short", short)
    not_character = EMBER_TEXT.replace(" *", "").replace("4 Flickerwand", "4 Flickerwand *")
    with pytest.raises(InvalidDeckError, match="Main Character must be a Character"):
        decks.save_deck("Wand", not_character)
    with pytest.raises(InvalidDeckError, match="longer than 64 KiB"):
        decks.save_deck("Huge", EMBER_TEXT + "#" * MAX_DECK_BYTES)
    assert decks.list_decks() == []


def test_names_are_unique_per_game_whatever_the_case(decks: DeckStore) -> None:
    first = decks.save_deck("Ember", EMBER_TEXT)
    with pytest.raises(DeckExistsError, match="'Ember' is already saved"):
        decks.save_deck("EMBER", SQUIRE_TEXT)
    assert decks.load_deck("ember").text == EMBER_TEXT
    replaced = decks.save_deck("EMBER", SQUIRE_TEXT, replace=True)
    assert (replaced.name, replaced.created) == ("Ember", first.created)
    assert replaced.updated > first.updated
    assert decks.load_deck("Ember").text == SQUIRE_TEXT
    assert len(decks.list_decks()) == 1


def test_rename(decks: DeckStore) -> None:
    decks.save_deck("Ember", EMBER_TEXT)
    decks.save_deck("Squire", SQUIRE_TEXT)
    with pytest.raises(DeckExistsError):
        decks.rename_deck("Ember", "squire")
    with pytest.raises(DeckNotFoundError, match="no saved deck named 'Nope'"):
        decks.rename_deck("Nope", "Other")
    assert decks.rename_deck("ember", "EMBER").name == "EMBER"  # letter case alone may change
    renamed = decks.rename_deck("EMBER", "Ember Dawn II")
    assert renamed.text == EMBER_TEXT
    assert [deck.name for deck in decks.list_decks()] == ["Ember Dawn II", "Squire"]
    with pytest.raises(DeckNotFoundError):
        decks.load_deck("Ember")


def test_delete(decks: DeckStore) -> None:
    decks.save_deck("Ember", EMBER_TEXT)
    decks.delete_deck("EMBER")
    assert decks.list_decks() == []
    with pytest.raises(DeckNotFoundError):
        decks.delete_deck("Ember")


@pytest.mark.parametrize("name", ["", "   ", "two\nlines", "tab\there", "x" * 65])
def test_unusable_names(decks: DeckStore, name: str) -> None:
    with pytest.raises(DeckError):
        decks.save_deck(name, EMBER_TEXT)
    decks.save_deck("Ember", EMBER_TEXT)
    with pytest.raises(DeckError):
        decks.rename_deck("Ember", name)
    assert [deck.name for deck in decks.list_decks()] == ["Ember"]


def test_only_games_with_deck_lists() -> None:
    with SessionStore() as store, pytest.raises(DeckError, match="has no deck lists"):
        DeckStore(store, "wizards-cup")


# -- the schema ------------------------------------------------------------------------


def test_version_1_database_is_upgraded_in_place() -> None:
    """A database from before deck lists keeps its sessions and gains the decks table."""
    conn = old_schema(1)
    conn.execute(
        "INSERT INTO sessions (game_id, options, seed, status, created, updated)"
        " VALUES ('count-to-ten', '{}', 7, 'active', 'then', 'then')"
    )
    conn.execute("INSERT INTO seats (session_id, seat, name, kind) VALUES (1, 0, 'Ana', 'human')")  # none: damaged
    conn.commit()
    conn.close()
    with SessionStore() as store:
        assert store.notice is None
        assert store.load(1).seed == 7
        DeckStore(store).save_deck("Ember", EMBER_TEXT)
    conn = sqlite3.connect(db_path())
    assert conn.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION >= 3
    assert conn.execute("SELECT name FROM decks").fetchall() == [("Ember",)]
    conn.close()


def test_a_missing_decks_table_is_made_again_and_the_sessions_kept() -> None:
    with SessionStore() as store:
        DeckStore(store).save_deck("Ember", EMBER_TEXT)
        kept = store.create_session("witchdraft", {}, 1, [SeatInfo("Ana"), SeatInfo("Bea")])
    conn = sqlite3.connect(db_path())
    conn.execute("DROP TABLE decks")
    conn.commit()
    conn.close()
    with SessionStore() as store:
        assert store.moved_to is None  # only the decks are lost, not every session with them
        assert DeckStore(store).list_decks() == []
        assert [entry.session_id for entry in store.list_sessions()] == [kept]
        DeckStore(store).save_deck("Ember", EMBER_TEXT)
        assert [deck.name for deck in DeckStore(store).list_decks()] == ["Ember"]


# -- deck files ------------------------------------------------------------------------


def test_read_deck_file(tmp_path: Path) -> None:
    path = tmp_path / "deck.txt"
    path.write_bytes(b"\xef\xbb\xbf" + EMBER_TEXT.encode())
    assert read_deck_file(path) == EMBER_TEXT  # a byte-order mark is dropped


@pytest.mark.parametrize(
    ("make", "message"),
    [
        (lambda p: None, "Could not read"),
        (lambda p: p.mkdir(), "not a regular file"),
        (lambda p: p.write_bytes(b"\x89PNG\r\n\x1a\n\x00\x00"), "not a text file"),
        (lambda p: p.write_bytes(b"4 Flicker\xffwand\n"), "not a text file"),
        (lambda p: p.write_text("#" * (MAX_DECK_BYTES + 1)), "too large"),
    ],
    ids=["missing", "directory", "binary", "not-utf8", "huge"],
)
def test_unreadable_deck_files(tmp_path: Path, make: object, message: str) -> None:
    path = tmp_path / "deck.txt"
    make(path)  # type: ignore[operator]
    with pytest.raises(DeckFileError, match=message):
        read_deck_file(path)


def test_a_pipe_is_not_read(tmp_path: Path) -> None:
    path = tmp_path / "pipe"
    os.mkfifo(path)
    with pytest.raises(DeckFileError, match="not a regular file"):
        read_deck_file(path)  # would block forever if it were opened


# -- playing a saved deck ----------------------------------------------------------------


def test_saved_deck_plays_replays_and_travels(tmp_path: Path) -> None:
    seats = [SeatInfo("Ana", "bot", "easy"), SeatInfo("Bo", "bot", "easy")]
    with SessionStore() as store:
        decks = DeckStore(store)
        decks.save_deck("Squire", SQUIRE_TEXT)
        text = decks.load_deck("Squire").text
        session = LiveSession.create(store, "wizbits", {"deck_1": text, "deck_2": "tidal-dusk"}, 11, seats)
        state = session.state
        assert state.cards[state.players[0].main] == "emberbeetle-squire"
        assert state.cards[state.players[1].main] == TIDAL_DUSK.deck.main
        rng = random.Random(3)
        steps = 0
        while not session.finished and steps < 400:
            if session.table_action is not None:
                session.play_table()
            else:
                seat = session.to_act[0]
                session.apply(seat, rng.choice(session.rules.legal_actions(session.state, seat)))
            steps += 1
        assert steps > 20
        # Deleting the saved deck must not matter: the session holds its own copy of the text.
        decks.delete_deck("Squire")
        resumed = LiveSession.load(store, session.session_id)
        assert resumed.options["deck_1"] == SQUIRE_TEXT
        assert resumed.digest == session.digest
        assert resumed.history()[0].state.cards == state.cards
        path = export_session(store, session.session_id, tmp_path / "game.json")
        copy = LiveSession.load(store, import_session(store, path))
        assert copy.digest == session.digest
        assert copy.options == session.options
