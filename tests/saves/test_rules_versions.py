"""A session replays under the rulings it began with, even after a later Coven changes a ruling.

``data/wizbits_rules_v1_games.json`` holds Wizbits games that the Coven of
before rules version 2 played with its own bots, and the digest of the state
each one ended in. That Coven resolved a unit's abilities all against the
step's opening state, destroyed a failed battle check before the next was
made and left Continue units on the pillar after their card left play.
"""

from __future__ import annotations

import hashlib
import json
import sqlite3
from pathlib import Path
from typing import Any

import pytest

from engine import UnknownRulesVersionError, get_game
from engine.core import ReplayError, canonical_json
from engine.wizbits.state import RULES_VERSION
from saves import LiveSession, SeatInfo, SessionLoadError, SessionStore, db_path, export_session, import_session
from saves.errors import SessionFileError
from saves.store_listing import DamagedSession
from tests.helpers.old_schema import old_schema

GAMES: list[dict[str, Any]] = json.loads(
    (Path(__file__).resolve().parents[1] / "data" / "wizbits_rules_v1_games.json").read_text())["games"]
SPEC = get_game("wizbits")
NAMES = ["Ana", "Bo"]


def old_digest(state: Any) -> str:
    """The digest the Coven of rules version 1 gave ``state`` (its JSON had no version field)."""
    data = SPEC.rules.state_to_json(state)
    assert data.pop("rules_version") == state.rules_version
    return hashlib.sha256(canonical_json(data).encode()).hexdigest()


def moves(game: dict[str, Any]) -> list[tuple[int | None, dict[str, Any]]]:
    return [(seat, action) for seat, action in game["log"]]


@pytest.mark.parametrize("game", GAMES, ids=lambda game: f"seed {game['seed']}")
def test_old_games_replay_under_version_1_as_they_were_played(game: dict[str, Any]) -> None:
    options = SPEC.resolve_options(game["options"])
    state = SPEC.rules.replay(options, game["seed"], 2, moves(game), NAMES, rules_version=1)
    assert old_digest(state) == game["final_digest"]
    assert (state.winner, state.turn, state.reason) == (game["winner"], game["turn"], game["reason"])


def test_the_newest_rulings_play_those_games_differently() -> None:
    """Why the version matters: replayed under the rulebook's rulings, each game ends elsewhere or is refused."""
    for game in GAMES:
        options = SPEC.resolve_options(game["options"])
        try:
            state = SPEC.rules.replay(options, game["seed"], 2, moves(game), NAMES)
        except ReplayError:
            continue
        assert old_digest(state) != game["final_digest"], game["seed"]


def test_new_games_play_the_newest_rulings() -> None:
    state = SPEC.new_state({}, 1, 2, NAMES)
    assert state.rules_version == RULES_VERSION == SPEC.rules.rules_version == 4
    assert SPEC.rules.state_from_json(SPEC.rules.state_to_json(SPEC.new_state({}, 1, 2, NAMES, 1))).rules_version == 1


@pytest.mark.parametrize("version", [0, -1, 5, 10**9, True, "1", 1.0])
def test_unknown_versions_are_refused_in_words(version: Any) -> None:
    with pytest.raises(UnknownRulesVersionError):
        SPEC.new_state({}, 1, 2, NAMES, version)


def test_a_game_with_one_version_knows_only_that_one() -> None:
    cup = get_game("wizards-cup")
    assert cup.new_state({}, 1, 2, NAMES, 1) is not None
    with pytest.raises(UnknownRulesVersionError, match="newer than this Coven knows"):
        cup.new_state({}, 1, 2, NAMES, 2)


# -- the store --------------------------------------------------------------------------------------


def old_database(game: dict[str, Any]) -> int:
    """A schema-4 database (before sessions had a rules version) holding ``game`` as a session."""
    conn = old_schema(4)
    options = json.dumps(SPEC.resolve_options(game["options"]))
    now = "2026-11-30T10:00:00+00:00"
    cursor = conn.execute("INSERT INTO sessions (game_id, options, seed, status, progress, result, created, updated)"
                          " VALUES ('wizbits', ?, ?, 'active', '', NULL, ?, ?)", (options, game["seed"], now, now))
    session_id = cursor.lastrowid
    assert session_id is not None
    conn.executemany("INSERT INTO seats (session_id, seat, name, kind, bot_level) VALUES (?, ?, ?, 'human', NULL)",
                     [(session_id, seat, name) for seat, name in enumerate(NAMES)])
    conn.executemany("INSERT INTO actions (session_id, seq, seat, action, created) VALUES (?, ?, ?, ?, ?)",
                     [(session_id, seq, seat, json.dumps(action), now)
                      for seq, (seat, action) in enumerate(game["log"], start=1)])
    conn.commit()
    conn.close()
    return session_id


def test_a_session_saved_before_versions_resumes_under_version_1() -> None:
    game = max(GAMES, key=lambda game: len(game["log"]))  # the one the newest rulings refuse to replay
    session_id = old_database(game)
    with SessionStore() as store:
        live = LiveSession.load(store, session_id)
        assert live.rules_version == 1 and live.state.rules_version == 1
        assert old_digest(live.state) == game["final_digest"]
        assert [entry for entry in store.list_sessions() if isinstance(entry, DamagedSession)] == []


def test_a_new_session_keeps_its_version_through_saving_and_loading(store: SessionStore) -> None:
    live = LiveSession.create(store, "wizbits", None, 5, [SeatInfo("Ana"), SeatInfo("Bo")])
    assert live.rules_version == RULES_VERSION
    loaded = LiveSession.load(store, live.session_id)
    assert loaded.rules_version == loaded.state.rules_version == RULES_VERSION
    assert store.load(live.session_id).rules_version == RULES_VERSION


def set_version(session_id: int, value: object) -> None:
    conn = sqlite3.connect(db_path())
    conn.execute("UPDATE sessions SET rules_version = ? WHERE id = ?", (value, session_id))
    conn.commit()
    conn.close()


def test_a_newer_coven_s_rulings_are_refused_in_words_not_called_damage(store: SessionStore) -> None:
    live = LiveSession.create(store, "wizbits", None, 5, [SeatInfo("Ana"), SeatInfo("Bo")])
    set_version(live.session_id, 7)
    with pytest.raises(SessionLoadError, match="rules version 7, newer than this Coven knows"):
        LiveSession.load(store, live.session_id)
    assert not any(isinstance(entry, DamagedSession) for entry in store.list_sessions())


@pytest.mark.parametrize("value", ["two", 0, -3, 2.5, b"\x01", 10**12])
def test_a_version_coven_never_writes_is_damage(store: SessionStore, value: object) -> None:
    live = LiveSession.create(store, "wizbits", None, 5, [SeatInfo("Ana"), SeatInfo("Bo")])
    other = LiveSession.create(store, "wizbits", None, 6, [SeatInfo("Ana"), SeatInfo("Bo")])
    set_version(live.session_id, value)
    listed = {entry.session_id: entry for entry in store.list_sessions()}
    damaged = listed[live.session_id]
    assert isinstance(damaged, DamagedSession) and "rules version" in damaged.reason
    assert not isinstance(listed[other.session_id], DamagedSession)
    with pytest.raises(SessionLoadError):
        LiveSession.load(store, live.session_id)


# -- files ------------------------------------------------------------------------------------------


def test_an_export_carries_the_version_and_imports_under_it(tmp_path: Path) -> None:
    game = max(GAMES, key=lambda game: len(game["log"]))
    session_id = old_database(game)
    path = tmp_path / "old.json"
    with SessionStore() as store:
        export_session(store, session_id, path)
        assert json.loads(path.read_text())["rules"] == 1
        imported = LiveSession.load(store, import_session(store, path))
        assert imported.rules_version == 1 and old_digest(imported.state) == game["final_digest"]


def rewritten(path: Path, **fields: Any) -> Path:
    document = json.loads(path.read_text())
    document.update(fields)
    document.pop("digest")
    path.write_text(json.dumps(document))
    return path


def test_a_file_from_before_versions_imports_under_version_1(tmp_path: Path) -> None:
    game = max(GAMES, key=lambda game: len(game["log"]))
    session_id = old_database(game)
    path = tmp_path / "old.json"
    with SessionStore() as store:
        export_session(store, session_id, path)
        document = json.loads(path.read_text())
        del document["rules"]
        path.write_text(json.dumps({**document, "version": 2}))
        imported = LiveSession.load(store, import_session(store, path))
        assert imported.rules_version == 1 and old_digest(imported.state) == game["final_digest"]


@pytest.mark.parametrize(("rules", "message"), [
    (9, "rules version 9, newer than this Coven knows"),
    ("2", "\"rules\" must be a whole number"),
    (None, "\"rules\" must be a whole number"),
    (0, "not a rules version"),
])
def test_a_file_with_a_version_this_coven_cannot_play_is_refused(
        store: SessionStore, tmp_path: Path, rules: object, message: str) -> None:
    live = LiveSession.create(store, "wizbits", None, 5, [SeatInfo("Ana"), SeatInfo("Bo")])
    path = tmp_path / "game.json"
    export_session(store, live.session_id, path)
    before = len(store.list_sessions())
    with pytest.raises(SessionFileError, match=message):
        import_session(store, rewritten(path, rules=rules))
    assert len(store.list_sessions()) == before
